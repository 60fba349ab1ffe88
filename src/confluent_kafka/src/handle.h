/* What Producer and Consumer share: the rd_kafka_t, the Python callbacks, the loop that serves
 * them, and the client's lifetime (close, dealloc, fork).
 *
 * Callbacks are served on the thread that calls poll()/flush()/consume(): that thread releases
 * the GIL while librdkafka blocks, and a callback takes it back only to run Python code. Delivery
 * reports are collected without the GIL and handed to Python in batches, so one GIL acquisition
 * serves many of them. An exception raised by a callback stops the wait early and surfaces from
 * the call that served it; undelivered reports wait in a backlog for the next call.
 *
 * Threads (docs/threading.md): one client may be used by many threads at once, with or without a
 * GIL. Every method that reaches rk runs as a "use" (CFL_GUARD_*: `active` counts them); close()
 * marks the client closing, waits until no use is left, and only then frees rk, so a call racing
 * close() either finishes first or raises RuntimeError. The fields threads share are either fixed
 * while rk lives (the conf callbacks, kind, ...), atomic (the flags below marked so), or read and
 * written in a critical section on the handle (the backlog, the rebalance callbacks, the
 * consumer's stash, last_topic and paused set, the asyncio queues). */
#ifndef CFL_HANDLE_H
#define CFL_HANDLE_H
#include "module.h"

/* What a produced message that wants a delivery report keeps alive until the report:
 * the librdkafka message opaque. Messages without a callback carry no MsgRef. */
typedef struct {
    PyObject *topic;
    PyObject *value; /* bytes passed to librdkafka without a copy, or NULL */
    PyObject *key;
    PyObject *headers; /* the user's headers object, or NULL */
    PyObject *callback;
    PyObject *opaque;  /* when set, the report calls callback(opaque, err, msg) (asyncio layer) */
    Py_ssize_t shared; /* > 0: one ref for the messages of a batch whose successful reports are not
                          wanted (delivery.report.only.error), this many still pending (plus one
                          while the produce_batch() that made it runs); a failed one's value and
                          key are copied from librdkafka's report (DrCopy) */
    char resolve;      /* a CFL_RESOLVE_* mode: callback is a spec (RecordMetadata, TopicPartition,
                          fallback, ...; or fallback, ... for CFL_RESOLVE_MESSAGE); a success
                          settles opaque (a future) in C, a failure calls fallback(opaque, err, msg) */
} MsgRef;

enum {
    CFL_RESOLVE_ASYNCIO = 1,       /* _produce_future(): opaque is an asyncio future */
    CFL_RESOLVE_RECORD_FUTURE = 2, /* _produce_record(): opaque is a _RecordFuture (record_future.c) */
    CFL_RESOLVE_MESSAGE = 3,       /* _produce_awaited(): opaque is an asyncio future, set to the Message;
                                      callback is (fallback, ignored exceptions, batching) */
};

/* A failed message's bytes for a shared MsgRef's report, copied without the GIL. */
typedef struct {
    rd_kafka_headers_t *headers;
    size_t value_len, key_len;
    char has_value, has_key;
    char data[]; /* value, then key */
} DrCopy;

/* One delivery report, captured without the GIL. */
typedef struct {
    MsgRef *ref;
    DrCopy *copy; /* shared refs, failed reports only */
    int64_t offset;
    int64_t timestamp;
    int64_t latency_us;
    rd_kafka_resp_err_t err;
    int32_t partition;
    int32_t leader_epoch;
    int tstype;
} DrEntry;

/* spec[1](topic, part) of a settled future's report: the one cached in spec[4] (a dict of
 * topic -> dict of partition -> TopicPartition) if the spec has a cache, else a new one (left
 * out of the garbage collector when it holds only atomic values). A new reference, or NULL with
 * an exception set. */
PyObject *cfl_spec_topic_partition(PyObject *spec, PyObject *topic, PyObject *part);

typedef struct {
    DrEntry *items;
    size_t head, len, cap;
} DrQueue;

typedef struct Handle {
    PyObject_HEAD
    rd_kafka_t *rk;
    cfl_state *st; /* the defining module's state (the type keeps the module alive) */
    rd_kafka_type_t kind;
    PyObject *error_cb;
    PyObject *throttle_cb;
    PyObject *stats_cb;
    PyObject *logger;
    PyObject *oauth_cb;
    PyObject *on_delivery; /* producer: default delivery callback */
    PyObject *on_commit;   /* consumer */
    PyObject *on_assign;   /* consumer rebalance callbacks, set by subscribe() */
    PyObject *on_revoke;
    PyObject *on_lost;
    PyObject *topics;      /* producer: topic name -> capsule(rd_kafka_topic_t *) */
    PyObject *oauth_error; /* exception raised by oauth_cb while the constructor waits */
    rd_kafka_queue_t *rkqu; /* consumer: the consumer queue */
    PyObject *stash;       /* consumer: Messages fetched by a call that then raised, served next */
    PyObject *last_topic;  /* consumer: the topic name of the last message, reused while equal;
                              producer: the topic object last produced to, whose rd_kafka_topic_t
                              is last_rkt (both read and replaced in a critical section) */
    rd_kafka_topic_t *last_rkt;
    PyObject *future_spec; /* producer: the first _produce_future() spec found valid (set once) */
    PyObject *paused;      /* consumer: {(topic, partition)} paused by the user and still assigned */
    int iter_timeout_ms;   /* consumer: idle time that ends iteration (-1: never) */
    DrQueue backlog;       /* delivery reports not yet handed to Python (GIL held to touch) */
    unsigned fork_generation;
    int dr_only_error;
    /* Atomic (CFL_LOAD_INT/CFL_STORE_INT): read by threads that hold no lock of the handle. */
    int no_callbacks;      /* set while tearing down: reports only release what they hold */
    int oauth_state;       /* 0 no oauth_cb, 1 waiting for the first token, 2 done */
    int rebalance_assigned; /* consumer: the rebalance callback assigned by itself */
    int active;            /* calls using rk (uses, see CFL_GUARD_*); close() waits for them */
    int in_transaction;    /* producer: begin_transaction() done, not yet committed or aborted */
    int closing;           /* close() started: waiting calls return at their next slice */
    int close_flushing;    /* producer: close() is delivering what it can before the teardown */
    int flushing;          /* producer: threads flushing (flush(), close()); poll() leaves them the reports */
    int held_reports;      /* delivery reports librdkafka let go of (its queue no longer counts them) that
                            * a call, on any thread, has yet to hand to Python: flush() and len() count them */
    int closed;
    int lifecycle;         /* a thread is in __init__ or close() (cfl_lifecycle_claim) */
    char peek_headers;     /* consumer: records' headers may be checked in their bytes first (message.c) */
    char cooperative;      /* consumer: its group rebalances incrementally (set from its configuration) */
    char io_on;             /* io_fd[] are open and the served queue writes to io_fd[1] */
    int io_fd[2];           /* asyncio wake-up pipe (io_event.c): read end, write end */
    rd_kafka_queue_t *aio_q;   /* results of awaited requests (sync commits), tagged by opaque */
    rd_kafka_queue_t *close_q; /* consumer: serves the group leave started by _close_start() */
    PyObject *weakreflist;
} Handle;

/* Per-call state of a thread inside poll/flush/consume (lives on that thread's stack). */
typedef struct CallState {
    Handle *h;
    PyThreadState *ts; /* saved thread state while the GIL is released; NULL while held */
    PyObject *exc;     /* the first exception a callback raised */
    DrQueue drs;       /* delivery reports captured during this call */
    Py_ssize_t served; /* callbacks run */
    int aside;         /* a call on a thread that does not serve the client (cfl_call_begin_aside) */
    struct CallState *prev;
} CallState;

/* Start/finish a call that may run callbacks. begin drains the backlog first and returns -1 if
 * that raised. end takes the GIL, hands over captured reports and returns -1 if a callback raised. */
int cfl_call_begin(Handle *h, CallState *cs);
/* A call made beside the thread that serves the client (the asyncio layer's loop): the delivery
 * reports librdkafka hands it are not delivered on this thread but left in the backlog, and the
 * wake-up pipe tells the serving thread to poll for them. Never fails. */
void cfl_call_begin_aside(Handle *h, CallState *cs);
void cfl_call_release(CallState *cs); /* release the GIL inside a call */
void cfl_call_acquire(CallState *cs); /* take it back */
int cfl_call_end(CallState *cs);

/* Serve `step` in GIL-free slices until it returns > 0 (done), the timeout passes (returns 0) or
 * an exception is raised (a callback's, or KeyboardInterrupt: returns -1). `step` runs without
 * the GIL and must return within slice_ms. served_out (may be NULL) gets the callbacks run. */
typedef int (*cfl_step_fn)(Handle *h, int slice_ms, void *ctx);
int cfl_serve(Handle *h, int timeout_ms, cfl_step_fn step, void *ctx, Py_ssize_t *served_out);

/* Run `stmt` (a blocking librdkafka call) with the GIL released, counted as a use of h->rk so
 * that close() on another thread waits for it instead of freeing rk under it. */
#define CFL_BLOCKING(h, stmt)                                                                     \
    do {                                                                                          \
        CFL_ADD_INT(&(h)->active, 1);                                                             \
        Py_BEGIN_ALLOW_THREADS stmt;                                                              \
        Py_END_ALLOW_THREADS CFL_ADD_INT(&(h)->active, -1);                                       \
    } while (0)

/* One method call's use of a client. While any use is open, close() on another thread waits
 * (the client stays usable); a use opened after close() began finds the client closing, and
 * its cfl_handle_check() raises. The uses of a thread form a stack (as CallStates do), so that
 * close() called from inside one of the client's own calls is refused instead of waiting for
 * itself. */
typedef struct CflUse {
    Handle *h;
    int counted; /* 0: only marks the thread as inside __init__/close() (cfl_lifecycle_claim) */
    struct CflUse *prev;
} CflUse;
void cfl_use_begin(Handle *h, CflUse *u);
void cfl_use_end(CflUse *u);

/* A method table entry's function run as a use: CFL_GUARD_O(fn) defines fn_guarded with fn's
 * signature (NOARGS and O methods share one; KW: args, kwargs; FAST: FASTCALL|KEYWORDS; FASTPOS:
 * FASTCALL; ITERNEXT/LEN: the type slots). `fn`'s self may be any Handle-headed struct. */
#define CFL_GUARD_BODY(call, type)                                                                \
    CflUse use_;                                                                                  \
    cfl_use_begin((Handle *)self, &use_);                                                         \
    type r_ = call;                                                                               \
    cfl_use_end(&use_);                                                                           \
    return r_;
#define CFL_GUARD_O(fn)                                                                           \
    static PyObject *fn##_guarded(PyObject *self, PyObject *arg) { CFL_GUARD_BODY(fn((void *)self, arg), PyObject *) }
#define CFL_GUARD_KW(fn)                                                                          \
    static PyObject *fn##_guarded(PyObject *self, PyObject *args, PyObject *kwargs) {            \
        CFL_GUARD_BODY(fn((void *)self, args, kwargs), PyObject *)                                \
    }
#define CFL_GUARD_FAST(fn)                                                                        \
    static PyObject *fn##_guarded(PyObject *self, PyObject *const *args, Py_ssize_t nargs,        \
                                  PyObject *kwnames) {                                            \
        CFL_GUARD_BODY(fn((void *)self, args, nargs, kwnames), PyObject *)                        \
    }
#define CFL_GUARD_FASTPOS(fn)                                                                     \
    static PyObject *fn##_guarded(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {      \
        CFL_GUARD_BODY(fn((void *)self, args, nargs), PyObject *)                                 \
    }
#define CFL_GUARD_ITERNEXT(fn)                                                                    \
    static PyObject *fn##_guarded(PyObject *self) { CFL_GUARD_BODY(fn((void *)self), PyObject *) }
#define CFL_GUARD_LEN(fn)                                                                         \
    static Py_ssize_t fn##_guarded(PyObject *self) { CFL_GUARD_BODY(fn((void *)self), Py_ssize_t) }

/* __init__ and close() of one client exclude each other across threads: a second close() waits
 * for the first to finish (and then finds the client closed) instead of tearing down the same
 * rk twice. 0 once claimed (release with cfl_lifecycle_release), or -1 with an exception: a
 * signal while waiting, or RuntimeError when this thread is already inside a call, callback,
 * __init__ or close() of this client (waiting would never end). */
int cfl_lifecycle_claim(Handle *h, CflUse *u);
void cfl_lifecycle_release(CflUse *u);

/* Raise RuntimeError if the client is closed (or was never initialised) or was created before a
 * fork(). Returns -1 then. The _common form is for the methods every client type shares
 * (list_topics, cluster_id, set_sasl_credentials), whose closed-client text is the same for all. */
int cfl_handle_check(Handle *h);
int cfl_handle_check_common(Handle *h);

/* How a librdkafka callback holds the GIL: through the waiting call on this thread (whose
 * earlier delivery reports it hands over first, to keep order), or through PyGILState on
 * librdkafka's own threads. cfl_cb_failed stores the raised exception for the waiting call. */
typedef struct {
    CallState *cs;
    PyGILState_STATE gs;
    int reacquired;
} CbGil;
void cfl_cb_enter(Handle *h, CbGil *g);
void cfl_cb_failed(rd_kafka_t *rk, CbGil *g, PyObject *callback);
void cfl_cb_leave(CbGil *g);
/* False once a callback of the current call has raised: later events are not handed to Python. */
int cfl_cb_may_call(const CbGil *g);

/* Register the librdkafka callbacks for the Python-only keys held by the handle. */
void cfl_handle_set_callbacks(Handle *h, rd_kafka_conf_t *conf);

/* A type's __init__: build the configuration from (conf=None, **kwargs), let `before_new`
 * (may be NULL) adjust it, create the rd_kafka_t, then route logs and wait for the first OAuth
 * token. Returns 0, or -1 with an exception set and nothing left allocated. */
int cfl_handle_start(Handle *h, rd_kafka_type_t kind, PyObject *args, PyObject *kwargs,
                     void (*before_new)(Handle *, rd_kafka_conf_t *));
/* The part of cfl_handle_start after rd_kafka_new (log queue, SASL callbacks, OAuth token). */
int cfl_handle_started(Handle *h);

/* A zeroed MsgRef (NULL with MemoryError), and the release of one's references (GIL held). */
MsgRef *cfl_msgref_new(void);
void cfl_msgref_free(MsgRef *ref);

/* Tear down librdkafka without running user callbacks, releasing what pending reports hold.
 * Waits for calls on other threads to leave rk first. Never blocks on the group:
 * Consumer.close() leaves it first. GIL held on entry and exit. */
void cfl_handle_destroy(Handle *h);

/* close() has begun on another thread: waits return at their next slice (the thread running
 * close() itself serves on). */
int cfl_handle_closing(Handle *h);

/* Make a wait on the main queue (a producer's poll() or flush() on another thread) return now. */
void cfl_yield_main_queue(Handle *h);

/* Refuse new calls and wait (GIL released) until calls on other threads have left rk. */
void cfl_handle_quiesce(Handle *h);

/* RuntimeError (returns -1) when called from inside one of this client's own callbacks or calls,
 * where tearing it down would pull rk from under the call that runs the callback. */
int cfl_handle_may_close(Handle *h);

/* Shared type plumbing. */
PyObject *cfl_handle_new(PyTypeObject *type, PyObject *args, PyObject *kwargs);
int cfl_handle_traverse(Handle *h, visitproc visit, void *arg);
int cfl_handle_clear(Handle *h);
void cfl_handle_dealloc(Handle *h);
PyObject *cfl_handle_set_sasl_credentials(Handle *h, PyObject *args, PyObject *kwargs);
PyObject *cfl_handle_enter(Handle *h, PyObject *unused);
PyObject *cfl_handle_cluster_id(Handle *h, PyObject *args, PyObject *kwargs);
/* The cluster id, waiting up to timeout_ms (negative: no limit), interruptible by signals;
 * KafkaException(_TIMED_OUT) when none arrives in time. */
PyObject *cfl_handle_wait_cluster_id(Handle *h, int timeout_ms);
PyObject *cfl_handle_reduce(Handle *h, PyObject *unused);
PyObject *cfl_list_topics(Handle *h, PyObject *args, PyObject *kwargs); /* metadata.c */
/* The entries of CFL_HANDLE_METHODS and CFL_IO_EVENT_METHODS, run as uses (handle.c). */
PyObject *cfl_list_topics_guarded(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *cfl_handle_cluster_id_guarded(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *cfl_handle_set_sasl_credentials_guarded(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *cfl_io_event_fd_guarded(PyObject *self, PyObject *unused);
PyObject *cfl_aio_results_guarded(PyObject *self, PyObject *unused);

/* Docstring lines of the methods that call librdkafka on an open client. */
#define CFL_DOC_RAISES_KAFKA ":raises ~confluent_kafka.KafkaException: when librdkafka reports an error.\n"
#define CFL_DOC_RAISES_CLOSED ":raises RuntimeError: when the client is closed.\n"

/* Methods every client type lists in its method table. */
#define CFL_HANDLE_METHODS                                                                        \
    {"list_topics", (PyCFunction)(void (*)(void))cfl_list_topics_guarded, METH_VARARGS | METH_KEYWORDS, \
     "list_topics($self, /, topic=None, timeout=-1)\n--\n\nReturns ClusterMetadata: brokers, "  \
     "topics and partitions (one topic if given).\n\n"                                            \
     ":param topic: only this topic, or None for all.\n"                                            \
     ":param timeout: seconds to wait; None or negative waits without limit.\n"                     \
     ":returns: a ClusterMetadata.\n"                                                               \
     ":raises ~confluent_kafka.KafkaException: when the metadata request fails.\n"},                \
    {"cluster_id", (PyCFunction)(void (*)(void))cfl_handle_cluster_id_guarded, METH_VARARGS | METH_KEYWORDS, \
     "cluster_id($self, /, timeout=-1)\n--\n\nThe id of the cluster, from broker metadata (brokers " \
     ">= 0.10.1, KIP-78).\n\n:param float timeout: seconds to wait for the metadata; -1 waits as long " \
     "as it takes.\n:returns: the cluster id\n:rtype: str\n:raises ~confluent_kafka.KafkaException: _TIMED_OUT when no " \
     "broker answered in time."},                                                                   \
    {"set_sasl_credentials", (PyCFunction)(void (*)(void))cfl_handle_set_sasl_credentials_guarded, \
     METH_VARARGS | METH_KEYWORDS,                                                                 \
     "set_sasl_credentials($self, /, username, password)\n--\n\nSet the SASL PLAIN/SCRAM "      \
     "credentials used on "                                                                        \
     "the next authentication.\n\n"                                                                \
     ":param username: the SASL user name (str).\n"                                                 \
     ":param password: the SASL password (str).\n"                                                  \
     ":raises ~confluent_kafka.KafkaException: when librdkafka refuses them.\n"},                   \
    {"__enter__", (PyCFunction)cfl_handle_enter, METH_NOARGS, NULL},                               \
    {"__reduce__", (PyCFunction)cfl_handle_reduce, METH_NOARGS, NULL}

/* Per-thread record of the innermost call (see CallState). */
#if defined(_MSC_VER)
#define CFL_THREAD_LOCAL __declspec(thread)
#else
#define CFL_THREAD_LOCAL _Thread_local
#endif

/* io_event.c: stop wake-ups and release the pipe and private queues (before rd_kafka_destroy);
 * `inherited`: a copy made by fork(), whose queues must not be touched. */
rd_kafka_queue_t *cfl_aio_queue(Handle *h); /* the private result queue, made on first use */
int cfl_io_watch(Handle *h, rd_kafka_queue_t *q); /* make q wake the pipe; -1 with an exception */
void cfl_io_wake(Handle *h); /* wake the pipe's reader, if there is a pipe */
void cfl_io_event_teardown(Handle *h, int inherited);

/* io_event.c: the asyncio entry points every client type lists in its method table. */
PyObject *cfl_io_event_fd(Handle *h, PyObject *unused);
PyObject *cfl_aio_results(Handle *h, PyObject *unused);
#define CFL_IO_EVENT_METHODS                                                                      \
    {"_io_event_fd", (PyCFunction)cfl_io_event_fd_guarded, METH_NOARGS,                           \
     "_io_event_fd($self, /)\n--\n\nReturns int.\n\nA non-blocking file descriptor that becomes " \
     "readable when the queue this client serves goes from empty to non-empty (asyncio layer)."}, \
    {"_aio_results", (PyCFunction)cfl_aio_results_guarded, METH_NOARGS,                           \
     "_aio_results($self, /)\n--\n\nReturns list of (token, result, exception) for finished "     \
     "awaited requests (asyncio layer)."}

/* Count fork()s in the child: a handle made in an earlier generation is unusable there. */
void cfl_fork_watch(void);
/* How many fork()s this process is away from the one that loaded the module; an object that
 * remembers a different value was inherited through fork(). */
unsigned cfl_fork_generation(void);

#endif
