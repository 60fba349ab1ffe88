/* The client handle shared by Producer and Consumer: callbacks, the serving loop, lifetime. */
#include "handle.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

#include "conf.h"
#include "consumer.h"
#include "done_batch.h"
#include "error.h"
#include "message.h"
#include "record_future.h"
#include "slot_field.h"

#ifndef _WIN32
#include <pthread.h>
#endif

#define CFL_SLICE_MS 100         /* longest GIL-free wait between signal checks */
#define CFL_DR_BATCH 1024        /* delivery reports handed to Python per GIL acquisition */
#define CFL_OAUTH_WAIT_MS 10000  /* how long a constructor waits for the first OAuth token */

/* ---- fork and thread bookkeeping -------------------------------------------------------- */

/* Process-wide on purpose: fork() is an event of the process, not of a module instance. */
static volatile unsigned fork_generation;
/* The innermost poll/flush/consume call of this thread, so callbacks can find their CallState. */
static CFL_THREAD_LOCAL CallState *current_call;
/* Set on librdkafka's own threads while they run our callbacks. */
static CFL_THREAD_LOCAL int on_librdkafka_thread;
/* The innermost use of a client by this thread (CflUse, see cfl_use_begin). */
static CFL_THREAD_LOCAL CflUse *current_use;

#ifndef _WIN32
static void after_fork_in_child(void) { fork_generation++; }
static void register_fork_handler(void) { pthread_atfork(NULL, NULL, after_fork_in_child); }
void cfl_fork_watch(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_fork_handler);
}
#else
void cfl_fork_watch(void) {}
#endif
unsigned cfl_fork_generation(void) { return fork_generation; }

int64_t cfl_monotonic_ms(void) {
#ifdef _WIN32
    return (int64_t)GetTickCount64();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
#endif
}

void cfl_sleep_ms(int ms) {
#ifdef _WIN32
    Sleep((DWORD)ms);
#else
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
#endif
}

static int64_t now_ms(void) { return cfl_monotonic_ms(); }

/* ---- delivery report queues ------------------------------------------------------------- */

static int drq_push(DrQueue *q, const DrEntry *e) {
    if (q->len == q->cap) {
        size_t ncap = q->cap ? q->cap * 2 : 256;
        DrEntry *items = realloc(q->items, ncap * sizeof(*items));
        if (items == NULL)
            return -1;
        q->items = items;
        q->cap = ncap;
    }
    q->items[q->len++] = *e;
    return 0;
}

static void drq_free(DrQueue *q) {
    free(q->items);
    memset(q, 0, sizeof(*q));
}

MsgRef *cfl_msgref_new(void) {
    MsgRef *ref = PyMem_Calloc(1, sizeof(*ref));
    if (ref == NULL)
        PyErr_NoMemory();
    else
        CFL_TSAN_NEW_MEMORY(ref, sizeof(*ref));
    return ref;
}

void cfl_msgref_free(MsgRef *ref) {
    Py_XDECREF(ref->topic);
    Py_XDECREF(ref->value);
    Py_XDECREF(ref->key);
    Py_XDECREF(ref->headers);
    Py_XDECREF(ref->callback);
    Py_XDECREF(ref->opaque);
    CFL_TSAN_NEW_MEMORY(ref, sizeof(*ref));
    PyMem_Free(ref);
}

static DrCopy *dr_copy(const rd_kafka_message_t *rkm) {
    DrCopy *c = malloc(sizeof(*c) + rkm->len + rkm->key_len);
    if (c == NULL)
        return NULL;
    c->has_value = rkm->payload != NULL;
    c->has_key = rkm->key != NULL;
    c->value_len = c->has_value ? rkm->len : 0;
    c->key_len = c->has_key ? rkm->key_len : 0;
    if (c->value_len)
        memcpy(c->data, rkm->payload, c->value_len);
    if (c->key_len)
        memcpy(c->data + c->value_len, rkm->key, c->key_len);
    rd_kafka_headers_t *hdrs;
    c->headers = rd_kafka_message_headers(rkm, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR ? rd_kafka_headers_copy(hdrs) : NULL;
    return c;
}

/* Release what a report holds: its MsgRef (a shared one once its last message reported) and
 * its copy. GIL held. */
static void dr_release(const DrEntry *e) {
    if (e->copy != NULL) {
        if (e->copy->headers != NULL)
            rd_kafka_headers_destroy(e->copy->headers);
        free(e->copy);
    }
    /* A batch's reports may be served by several threads at once: the count is atomic. */
    if (CFL_LOAD_SSIZE(&e->ref->shared) == 0 || CFL_ADD_SSIZE(&e->ref->shared, -1) == 1)
        cfl_msgref_free(e->ref);
}

static PyObject *bytes_or_null(const char *p, size_t len, int present) {
    return present ? PyBytes_FromStringAndSize(p, (Py_ssize_t)len) : NULL;
}

/* A named tuple that can never be part of a reference cycle (cfl_may_reach_back's rule: no
 * instance dict, only values the collector does not watch and such tuples) is left out of the
 * garbage collector's generations, as CPython does for such plain tuples (and this module for
 * Messages), so reports held by many pending futures do not make each collection longer. */
static void untrack_if_atomic(PyObject *t) {
    if (PyObject_GC_IsTracked(t) && !cfl_may_reach_back(t))
        PyObject_GC_UnTrack(t);
}

#define CFL_TP_CACHE_TOPICS 10000 /* topics a _produce_future() TopicPartition cache holds at most */
#define CFL_TP_CACHE_PARTS 100000 /* partitions of one topic it holds at most */

PyObject *cfl_spec_topic_partition(PyObject *spec, PyObject *topic, PyObject *part) {
    PyTypeObject *tp_type = (PyTypeObject *)PyTuple_GET_ITEM(spec, 1);
    PyObject *cache = PyTuple_GET_SIZE(spec) > 4 ? PyTuple_GET_ITEM(spec, 4) : NULL;
    /* Strong references taken by the lookup itself (cfl_dict_get_ref): a lookup may run a str
     * subclass's __eq__, and the cache is shared by the threads serving delivery reports. */
    PyObject *by_part = NULL;
    if (cache != NULL) {
        if (cfl_dict_get_ref(cache, topic, &by_part) < 0)
            return NULL;
        if (by_part != NULL) {
            PyObject *hit;
            int found = cfl_dict_get_ref(by_part, part, &hit);
            if (found != 0) {
                Py_DECREF(by_part);
                return hit; /* NULL with the exception when the lookup raised */
            }
        }
    }
    PyObject *tp = cfl_tuple_subtype_alloc(tp_type, 2);
    if (tp == NULL) {
        Py_XDECREF(by_part);
        return NULL;
    }
    PyTuple_SET_ITEM(tp, 0, Py_NewRef(topic));
    PyTuple_SET_ITEM(tp, 1, Py_NewRef(part));
    untrack_if_atomic(tp);
    if (cache != NULL) {
        if (by_part == NULL) {
            if (PyDict_GET_SIZE(cache) >= CFL_TP_CACHE_TOPICS)
                PyDict_Clear(cache);
            by_part = PyDict_New();
            if (by_part == NULL || PyDict_SetItem(cache, topic, by_part) < 0)
                goto fail;
        }
        if (PyDict_GET_SIZE(by_part) < CFL_TP_CACHE_PARTS && PyDict_SetItem(by_part, part, tp) < 0)
            goto fail;
        Py_DECREF(by_part);
    }
    return tp;
fail:
    Py_XDECREF(by_part);
    Py_DECREF(tp);
    return NULL;
}

/* What consecutive _produce_future() reports of one drain share, so that most of them skip the
 * lookups (strong references, released by dr_memo_clear() when the drain ends): the
 * TopicPartition of the last (spec, topic, partition), the last timestamp's int (reports of
 * one millisecond share it, as equal ints may), and the set_result method of the futures' type. */
typedef struct {
    PyObject *spec, *topic, *part, *tp;
    int32_t partition;
    int64_t timestamp;
    PyObject *ts;
    PyTypeObject *fut_type;
    PyObject *set_result; /* fut_type's method descriptor, or NULL: call through the instance */
    CflDoneBatch done;    /* the settled futures' done-callbacks, scheduled together */
} DrMemo;

static void dr_memo_clear(DrMemo *m) {
    Py_CLEAR(m->spec);
    Py_CLEAR(m->topic);
    Py_CLEAR(m->part);
    Py_CLEAR(m->tp);
    Py_CLEAR(m->ts);
    Py_CLEAR(m->fut_type);
    Py_CLEAR(m->set_result);
    cfl_done_batch_clear(&m->done);
}

/* Schedule the done-callbacks collected so far, before a report that does not add to them: they
 * run in the order the reports came. 0, or -1 with an exception. */
static int dr_memo_flush(cfl_state *st, DrMemo *m) {
    return m != NULL ? cfl_done_batch_flush(st, &m->done) : 0;
}

/* fut.set_result(value). For a future of an immutable type (asyncio's own Future) whose
 * set_result is a method descriptor and that has no instance dict to shadow it, the method is
 * looked up once per drain and called with the future as its first argument: what the attribute
 * lookup finds every time. Anything else goes through the attribute lookup. New reference. */
static PyObject *dr_set_result(cfl_state *st, DrMemo *memo, PyObject *fut, PyObject *value) {
    PyTypeObject *type = Py_TYPE(fut);
    if (memo != NULL && type->tp_dictoffset > 0 &&
        CFL_LOAD_PTR((PyObject **)((char *)fut + type->tp_dictoffset)) == NULL) {
        if (memo->fut_type != type && PyType_HasFeature(type, Py_TPFLAGS_IMMUTABLETYPE) &&
            Py_IS_TYPE(type, &PyType_Type)) {
            PyObject *descr = PyObject_GetAttr((PyObject *)type, st->kw[CFL_KW_set_result]);
            if (descr == NULL)
                PyErr_Clear(); /* the call below raises it again, where it belongs */
            else if (!PyType_HasFeature(Py_TYPE(descr), Py_TPFLAGS_METHOD_DESCRIPTOR))
                Py_CLEAR(descr);
            Py_XSETREF(memo->fut_type, (PyTypeObject *)Py_NewRef(type));
            Py_XSETREF(memo->set_result, descr);
        }
        if (memo->fut_type == type && memo->set_result != NULL) {
            PyObject *args[2] = {fut, value};
            return PyObject_Vectorcall(memo->set_result, args, 2, NULL);
        }
    }
    return PyObject_CallMethodOneArg(fut, st->kw[CFL_KW_set_result], value);
}

/* fut.set_result(value) for a successful report, an exception of the tuple `ignored` from it dropped
 * (a future cancelled by its awaiter, or a closed loop). With `batching` (a spec's (future class,
 * runner), or NULL) the future's done-callbacks are taken out of it first, to run with the
 * drain's others in one loop callback (done_batch.c). 0, or -1 with an exception. GIL held. */
static int dr_settle(cfl_state *st, DrMemo *memo, PyObject *batching, PyObject *ignored, PyObject *fut,
                     PyObject *value) {
    PyObject *taken = NULL;
    int took = memo != NULL && batching != NULL
                   ? cfl_done_batch_take(st, &memo->done, batching, ignored, fut, &taken)
                   : 0;
    if (took < 0 || (took == 0 && dr_memo_flush(st, memo) < 0))
        return -1;
    PyObject *res = dr_set_result(st, memo, fut, value);
    if (took) {
        PyObject *exc = CFL_FETCH_EXC(); /* set_result()'s, if it raised */
        if (cfl_done_batch_add(&memo->done, fut, taken) < 0) {
            Py_XDECREF(exc);
            Py_XDECREF(res);
            return -1;
        }
        CFL_RESTORE_EXC(exc);
    }
    if (res == NULL) {
        if (PyErr_ExceptionMatches(ignored)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

/* A successful report of _produce_future(): future.set_result(RecordMetadata(...)) built here,
 * without a Message. 0, or -1 with an exception set. GIL held. */
static int dr_resolve(cfl_state *st, const MsgRef *ref, const DrEntry *e, DrMemo *memo) {
    PyTypeObject *rm_type = (PyTypeObject *)PyTuple_GET_ITEM(ref->callback, 0);
    PyObject *rm = cfl_tuple_subtype_alloc(rm_type, 7);
    if (rm == NULL)
        return -1;
    /* rm owns every item from here; a NULL one is skipped on release */
    PyObject *part, *tp;
    if (memo != NULL && memo->tp != NULL && memo->spec == ref->callback && memo->topic == ref->topic &&
        memo->partition == e->partition) {
        part = Py_NewRef(memo->part);
        tp = Py_NewRef(memo->tp);
    } else {
        part = e->partition < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(e->partition);
        if (part == NULL) {
            Py_DECREF(rm);
            return -1;
        }
        tp = cfl_spec_topic_partition(ref->callback, ref->topic, part);
        if (tp == NULL) {
            Py_DECREF(part);
            Py_DECREF(rm);
            return -1;
        }
        if (memo != NULL) {
            Py_XSETREF(memo->spec, Py_NewRef(ref->callback));
            Py_XSETREF(memo->topic, Py_NewRef(ref->topic));
            Py_XSETREF(memo->part, Py_NewRef(part));
            Py_XSETREF(memo->tp, Py_NewRef(tp));
            memo->partition = e->partition;
        }
    }
    PyTuple_SET_ITEM(rm, 0, Py_NewRef(ref->topic));
    PyTuple_SET_ITEM(rm, 1, part);
    PyTuple_SET_ITEM(rm, 2, tp);
    PyObject *ts;
    if (e->tstype == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE) {
        ts = Py_NewRef(Py_None);
    } else if (memo != NULL && memo->ts != NULL && memo->timestamp == e->timestamp) {
        ts = Py_NewRef(memo->ts);
    } else {
        ts = PyLong_FromLongLong(e->timestamp);
        if (memo != NULL && ts != NULL) {
            Py_XSETREF(memo->ts, Py_NewRef(ts));
            memo->timestamp = e->timestamp;
        }
    }
    PyObject *items[4] = {
        e->offset < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(e->offset),
        ts,
        PyLong_FromLong(e->tstype == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? 1 : 0),
        Py_NewRef(Py_None),
    };
    for (int i = 0; i < 4; i++)
        PyTuple_SET_ITEM(rm, 3 + i, items[i]);
    for (int i = 0; i < 4; i++)
        if (items[i] == NULL) {
            Py_DECREF(rm);
            return -1;
        }
    /* Its items are the topic, ints, None and the TopicPartition: atomic when the topic is an
     * exact str and the TopicPartition was left untracked (untrack_if_atomic(), checked here
     * without walking the items, once per report). */
    if (rm_type->tp_dictoffset == 0 && PyUnicode_CheckExact(ref->topic) && !PyObject_GC_IsTracked(tp))
        PyObject_GC_UnTrack(rm);
    int rc = dr_settle(st, memo, PyTuple_GET_SIZE(ref->callback) > 5 ? PyTuple_GET_ITEM(ref->callback, 5) : NULL,
                       PyTuple_GET_ITEM(ref->callback, 3), ref->opaque, rm);
    Py_DECREF(rm);
    return rc;
}

/* Hand one report to its callback and release the message's references. GIL held. */
static int dr_deliver(Handle *h, cfl_state *st, const DrEntry *e, DrMemo *memo) {
    MsgRef *ref = e->ref;
    int rc = 0;
    int no_callbacks = CFL_LOAD_INT(&h->no_callbacks);
    if (ref->resolve == CFL_RESOLVE_ASYNCIO && !no_callbacks && e->err == RD_KAFKA_RESP_ERR_NO_ERROR &&
        e->copy == NULL) {
        rc = dr_resolve(st, ref, e, memo);
        dr_release(e);
        return rc;
    }
    int settle = ref->resolve == CFL_RESOLVE_MESSAGE && e->err == RD_KAFKA_RESP_ERR_NO_ERROR;
    if (!settle && dr_memo_flush(st, memo) < 0) {
        dr_release(e);
        return -1;
    }
    if (ref->resolve == CFL_RESOLVE_RECORD_FUTURE && !no_callbacks && e->err == RD_KAFKA_RESP_ERR_NO_ERROR &&
        e->copy == NULL) {
        rc = cfl_record_future_delivered(ref->opaque, ref->callback, ref->topic, e);
        dr_release(e);
        return rc;
    }
    /* An awaited report (opaque set) always resolves, even with delivery.report.only.error. */
    if (!no_callbacks && !(h->dr_only_error && e->err == RD_KAFKA_RESP_ERR_NO_ERROR && ref->opaque == NULL)) {
        PyObject *err = cfl_error_or_none(st, e->err, NULL);
        MessageObject *m = err ? cfl_message_alloc(st) : NULL;
        if (m != NULL) {
            m->topic = Py_XNewRef(ref->topic);
            if (e->copy != NULL) {
                DrCopy *c = e->copy;
                m->value = bytes_or_null(c->data, c->value_len, c->has_value);
                m->key = bytes_or_null(c->data + c->value_len, c->key_len, c->has_key);
                m->c_headers = c->headers; /* the Message's now */
                c->headers = NULL;
            } else {
                m->value = Py_XNewRef(ref->value);
                m->key = Py_XNewRef(ref->key);
                m->headers = Py_XNewRef(ref->headers);
                m->headers_raw = ref->headers != NULL;
            }
            m->error = err != Py_None ? Py_NewRef(err) : NULL;
            m->partition = e->partition;
            m->offset = e->offset;
            m->timestamp = e->timestamp;
            m->tstype = e->tstype;
            m->latency_us = e->latency_us;
            m->leader_epoch = e->leader_epoch;
            if (PyErr_Occurred()) {
                rc = -1; /* a copy's bytes could not be made */
            } else if (settle) {
                rc = dr_settle(st, memo, PyTuple_GET_ITEM(ref->callback, 2), PyTuple_GET_ITEM(ref->callback, 1),
                               ref->opaque, (PyObject *)m);
            } else {
                /* Vectorcall: no argument tuple per report (one more slot in front, as
                 * PY_VECTORCALL_ARGUMENTS_OFFSET allows). */
                PyObject *argv[4] = {NULL, ref->opaque, err, (PyObject *)m};
                PyObject *callback = ref->resolve == CFL_RESOLVE_MESSAGE ? PyTuple_GET_ITEM(ref->callback, 0)
                                     : ref->resolve                      ? PyTuple_GET_ITEM(ref->callback, 2)
                                                                         : ref->callback;
                PyObject *res =
                    ref->opaque != NULL
                        ? PyObject_Vectorcall(callback, argv + 1, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL)
                        : PyObject_Vectorcall(callback, argv + 2, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
                rc = res != NULL ? 0 : -1;
                Py_XDECREF(res);
            }
            Py_DECREF(m);
        } else {
            rc = -1;
        }
        Py_XDECREF(err);
    }
    dr_release(e);
    return rc;
}

/* Deliver queued reports in order; stops at the first callback that raises. GIL held. */
static int drq_drain(Handle *h, DrQueue *q, Py_ssize_t *served) {
    if (q->head == q->len)
        return 0;
    cfl_state *st = h->st;
    if (st == NULL)
        return -1;
    DrMemo memo = {0};
    size_t first = q->head;
    int rc = 0;
    while (q->head < q->len) {
        DrEntry e = q->items[q->head++];
        (*served)++;
        if ((rc = dr_deliver(h, st, &e, &memo)) < 0)
            break;
    }
    if (rc == 0)
        rc = dr_memo_flush(st, &memo);
    else if (memo.done.items != NULL) {
        /* The callbacks of the futures settled before the one that failed still run. */
        PyObject *exc = CFL_FETCH_EXC();
        if (dr_memo_flush(st, &memo) < 0)
            PyErr_WriteUnraisable(memo.done.loop);
        CFL_RESTORE_EXC(exc);
    }
    dr_memo_clear(&memo);
    /* Handed over (their callbacks have run): a flush() need no longer wait for them. */
    CFL_SHARED_ADD_INT(&h->held_reports, -(int)(q->head - first));
    if (rc == 0)
        q->head = q->len = 0;
    return rc;
}

/* Take the oldest report of the client's backlog, which every thread serving the client shares:
 * 1 taken into *e, 0 when the backlog is empty. */
static int backlog_pop(Handle *h, DrEntry *e) {
    int got = 0;
    Py_BEGIN_CRITICAL_SECTION(h);
    DrQueue *q = &h->backlog;
    if (q->head < q->len) {
        *e = q->items[q->head++];
        got = 1;
    }
    if (q->head == q->len)
        q->head = q->len = 0;
    Py_END_CRITICAL_SECTION();
    return got;
}

/* Deliver the backlog's reports in order, one at a time (other threads may deliver some of them
 * meanwhile); stops at the first callback that raises. GIL held. */
static int backlog_drain(Handle *h, Py_ssize_t *served) {
    cfl_state *st = h->st;
    DrEntry e;
    while (backlog_pop(h, &e)) {
        (*served)++;
        if (st == NULL) {
            dr_release(&e);
            CFL_SHARED_ADD_INT(&h->held_reports, -1);
            return -1;
        }
        int rc = dr_deliver(h, st, &e, NULL);
        CFL_SHARED_ADD_INT(&h->held_reports, -1);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Keep the reports a call could not hand over (a callback raised) for the next call. Out of
 * memory, the ones that could not be kept are released rather than leaked. GIL held. */
static void backlog_push(Handle *h, DrQueue *from) {
    size_t i = from->head;
    Py_BEGIN_CRITICAL_SECTION(h);
    for (; i < from->len; i++)
        if (drq_push(&h->backlog, &from->items[i]) < 0)
            break;
    Py_END_CRITICAL_SECTION();
    for (; i < from->len; i++) {
        dr_release(&from->items[i]);
        CFL_SHARED_ADD_INT(&h->held_reports, -1);
    }
}

/* The client's class name for messages ("Producer", "Consumer", "AdminClient", a subclass). */
static const char *kind_name(Handle *h) {
    const char *name = Py_TYPE(h)->tp_name, *dot = strrchr(name, '.');
    return dot != NULL ? dot + 1 : name;
}

/* ---- uses and lifecycle ----------------------------------------------------------------- */

void cfl_use_begin(Handle *h, CflUse *u) {
    u->h = h;
    u->counted = 1;
    u->prev = current_use;
    current_use = u;
    /* Counted before the method looks at closing (in cfl_handle_check): either close() sees this
     * use and waits for it, or the method sees closing and raises (both accesses are atomic). */
    CFL_ADD_INT(&h->active, 1);
}

void cfl_use_end(CflUse *u) {
    current_use = u->prev;
    if (u->counted)
        CFL_ADD_INT(&u->h->active, -1);
}

static int use_find(Handle *h) {
    for (CflUse *u = current_use; u != NULL; u = u->prev)
        if (u->h == h)
            return 1;
    return 0;
}

int cfl_handle_closing(Handle *h) {
    if (!CFL_LOAD_INT(&h->closing))
        return 0;
    /* The thread running close() (its uncounted mark) serves on: its flush must not stop. */
    for (CflUse *u = current_use; u != NULL; u = u->prev)
        if (u->h == h && !u->counted)
            return 0;
    return 1;
}

int cfl_lifecycle_claim(Handle *h, CflUse *u) {
    if (use_find(h)) {
        PyErr_Format(PyExc_RuntimeError,
                     "a %s cannot be closed or initialized from inside one of its own calls or callbacks",
                     kind_name(h));
        return -1;
    }
    while (!cfl_claim_int(&h->lifecycle)) {
        /* Another thread is in __init__ or close() of this client: wait for it to finish. */
        Py_BEGIN_ALLOW_THREADS
        cfl_sleep_ms(2);
        Py_END_ALLOW_THREADS
        if (PyErr_CheckSignals() < 0)
            return -1;
    }
    u->h = h;
    u->counted = 0;
    u->prev = current_use;
    current_use = u;
    return 0;
}

void cfl_lifecycle_release(CflUse *u) {
    current_use = u->prev;
    CFL_STORE_INT(&u->h->lifecycle, 0);
}

/* ---- calls ------------------------------------------------------------------------------ */

int cfl_call_begin(Handle *h, CallState *cs) {
    memset(cs, 0, sizeof(*cs));
    cs->h = h;
    cs->prev = current_call;
    current_call = cs;
    CFL_ADD_INT(&h->active, 1);
    if (backlog_drain(h, &cs->served) < 0) {
        current_call = cs->prev;
        CFL_ADD_INT(&h->active, -1);
        return -1;
    }
    return 0;
}

void cfl_call_begin_aside(Handle *h, CallState *cs) {
    memset(cs, 0, sizeof(*cs));
    cs->h = h;
    cs->aside = 1;
    cs->prev = current_call;
    current_call = cs;
    CFL_ADD_INT(&h->active, 1);
}

/* Hand over the reports a call captured: delivered here, or, for an aside call, left in the
 * backlog for the serving thread, which the pipe wakes. -1 if a callback raised. GIL held. */
static int call_drain(CallState *cs) {
    if (!cs->aside)
        return drq_drain(cs->h, &cs->drs, &cs->served);
    if (cs->drs.head < cs->drs.len) {
        backlog_push(cs->h, &cs->drs);
        cs->drs.head = cs->drs.len = 0;
        cfl_io_wake(cs->h);
    }
    return 0;
}

void cfl_call_release(CallState *cs) { cs->ts = PyEval_SaveThread(); }

void cfl_call_acquire(CallState *cs) {
    PyEval_RestoreThread(cs->ts);
    cs->ts = NULL;
}

int cfl_call_end(CallState *cs) {
    Handle *h = cs->h;
    if (cs->exc == NULL && call_drain(cs) < 0)
        cs->exc = CFL_FETCH_EXC();
    /* Reports not handed over (a callback raised) wait for the next call. */
    if (cs->drs.head < cs->drs.len)
        backlog_push(h, &cs->drs);
    drq_free(&cs->drs);
    current_call = cs->prev;
    CFL_ADD_INT(&h->active, -1);
    if (cs->exc != NULL) {
        CFL_RESTORE_EXC(cs->exc);
        return -1;
    }
    return 0;
}

int cfl_serve(Handle *h, int timeout_ms, cfl_step_fn step, void *ctx, Py_ssize_t *served_out) {
    CallState cs;
    if (cfl_call_begin(h, &cs) < 0)
        return -1;
    int64_t deadline = timeout_ms < 0 ? INT64_MAX : timeout_ms == 0 ? 0 : now_ms() + timeout_ms;
    int r, first = 1;
    for (;;) {
        int64_t left = deadline == INT64_MAX ? CFL_SLICE_MS : deadline - (deadline ? now_ms() : 0);
        int slice = left <= 0 ? 0 : left > CFL_SLICE_MS ? CFL_SLICE_MS : (int)left;
        if (first) {
            /* Work that is ready costs no GIL round trip: look once without waiting. */
            first = 0;
            r = step(h, 0, ctx);
            if (r > 0 || cs.exc != NULL || slice == 0)
                break;
        }
        if (slice > 0) {
            cfl_call_release(&cs);
            r = step(h, slice, ctx);
            cfl_call_acquire(&cs);
        } else {
            r = step(h, 0, ctx); /* nothing to wait for: keep the GIL */
        }
        if (r > 0 || cs.exc != NULL || cfl_handle_closing(h))
            break;
        if (drq_drain(h, &cs.drs, &cs.served) < 0) {
            cs.exc = CFL_FETCH_EXC();
            break;
        }
        if (PyErr_CheckSignals() < 0) {
            cs.exc = CFL_FETCH_EXC();
            break;
        }
        if (slice == 0 || now_ms() >= deadline)
            break;
    }
    if (served_out != NULL)
        *served_out = cs.served;
    if (cfl_call_end(&cs) < 0)
        return -1;
    return r > 0;
}

/* ---- callbacks from librdkafka ---------------------------------------------------------- */

/* Make a producer's serving call return early. Never a consumer's: librdkafka's batch consume
 * drops the message it is holding when it sees a yield; the wait ends at its next slice anyway. */
static void yield_if_safe(rd_kafka_t *rk) {
    if (rd_kafka_type(rk) == RD_KAFKA_PRODUCER)
        rd_kafka_yield(rk);
}

static CallState *call_find(Handle *h) {
    for (CallState *cs = current_call; cs != NULL; cs = cs->prev)
        if (cs->h == h)
            return cs;
    return NULL;
}

void cfl_cb_enter(Handle *h, CbGil *g) {
    g->cs = call_find(h);
    g->reacquired = 0;
    if (g->cs == NULL) {
        g->gs = PyGILState_Ensure();
        return;
    }
    if (g->cs->ts != NULL) {
        cfl_call_acquire(g->cs);
        g->reacquired = 1;
    }
    /* Earlier delivery reports go first, to keep events in order. */
    if (g->cs->exc == NULL && call_drain(g->cs) < 0) {
        g->cs->exc = CFL_FETCH_EXC();
        yield_if_safe(h->rk);
    }
}

/* A callback raised (exception set, GIL held): the waiting call re-raises it. */
void cfl_cb_failed(rd_kafka_t *rk, CbGil *g, PyObject *callback) {
    if (g->cs != NULL && g->cs->exc == NULL) {
        g->cs->exc = CFL_FETCH_EXC();
        yield_if_safe(rk);
    } else {
        PyErr_WriteUnraisable(callback);
    }
}

int cfl_cb_may_call(const CbGil *g) { return g->cs == NULL || g->cs->exc == NULL; }

void cfl_cb_leave(CbGil *g) {
    if (g->cs == NULL)
        PyGILState_Release(g->gs);
    else if (g->reacquired)
        cfl_call_release(g->cs);
}

static void call_user(rd_kafka_t *rk, CbGil *g, PyObject *callback, PyObject *arg) {
    if (arg == NULL) {
        cfl_cb_failed(rk, g, callback);
        return;
    }
    PyObject *res = PyObject_CallOneArg(callback, arg);
    Py_DECREF(arg);
    if (res == NULL)
        cfl_cb_failed(rk, g, callback);
    else
        Py_DECREF(res);
    if (g->cs != NULL)
        g->cs->served++;
}

static void dr_msg_cb(rd_kafka_t *rk, const rd_kafka_message_t *rkm, void *opaque) {
    MsgRef *ref = (MsgRef *)rkm->_private;
    if (ref == NULL)
        return; /* produced without a callback: nothing to report */
    Handle *h = (Handle *)opaque;
    rd_kafka_timestamp_type_t tstype;
    DrEntry e = {
        .ref = ref,
        .err = rkm->err,
        .partition = rkm->partition,
        .offset = rkm->offset,
        .leader_epoch = -1,
        .latency_us = -1,
    };
    /* A future resolved in C with a RecordMetadata has no Message to show them. */
    if (!ref->resolve || ref->resolve == CFL_RESOLVE_MESSAGE || rkm->err) {
        e.leader_epoch = rd_kafka_message_leader_epoch(rkm);
        e.latency_us = rd_kafka_message_latency(rkm);
    }
    if (CFL_LOAD_SSIZE(&ref->shared) && rkm->err)
        e.copy = dr_copy(rkm); /* NULL without memory: reported with no value and key */
    e.timestamp = rd_kafka_message_timestamp(rkm, &tstype);
    e.tstype = (int)tstype;
    if (tstype == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE)
        e.timestamp = 0;

    CallState *cs = call_find(h);
    if (cs != NULL && drq_push(&cs->drs, &e) == 0) {
        /* librdkafka counts the message as delivered once this returns; until the report reaches
         * Python, this count keeps a flush() on another thread waiting for it. */
        CFL_SHARED_ADD_INT(&h->held_reports, 1);
        if (cs->drs.len - cs->drs.head < CFL_DR_BATCH || cs->exc != NULL)
            return;
        CbGil g = {.cs = cs};
        if (cs->ts != NULL) {
            cfl_call_acquire(cs);
            g.reacquired = 1;
        }
        if (call_drain(cs) < 0)
            cfl_cb_failed(rk, &g, NULL);
        cfl_cb_leave(&g);
        return;
    }
    /* No call of ours on this thread (or no memory to queue): deliver right away. */
    CbGil g;
    cfl_cb_enter(h, &g);
    cfl_state *st = h->st;
    if (st == NULL || dr_deliver(h, st, &e, NULL) < 0)
        cfl_cb_failed(rk, &g, NULL);
    cfl_cb_leave(&g);
}

static void error_cb(rd_kafka_t *rk, int code, const char *reason, void *opaque) {
    Handle *h = (Handle *)opaque;
    CbGil g;
    cfl_cb_enter(h, &g);
    cfl_state *st = h->st;
    if (st == NULL || CFL_LOAD_INT(&h->no_callbacks))
        goto done;
    rd_kafka_resp_err_t err = (rd_kafka_resp_err_t)code;
    char fatal_reason[512];
    int fatal = err == RD_KAFKA_RESP_ERR__FATAL;
    if (fatal) {
        err = rd_kafka_fatal_error(rk, fatal_reason, sizeof(fatal_reason));
        reason = fatal_reason;
    }
    PyObject *eo = cfl_error_new(st, err, reason);
    if (eo != NULL)
        ((KafkaErrorObject *)eo)->fatal = (char)fatal;
    if (!cfl_cb_may_call(&g)) {
        Py_XDECREF(eo); /* this call already raised: later events are not handed to Python */
    } else if (h->error_cb != NULL) {
        call_user(rk, &g, h->error_cb, eo);
    } else if (fatal && eo != NULL && !CFL_LOAD_INT(&h->close_flushing)) {
        /* Nobody listens, yet the client is now unusable: say so from the serving call. (Not
         * from close(): closing is what a fatal error calls for, and the failed messages'
         * delivery reports still say what was lost.) */
        cfl_raise_error_obj(st, eo);
        Py_DECREF(eo);
        cfl_cb_failed(rk, &g, NULL);
    } else if (eo == NULL) {
        cfl_cb_failed(rk, &g, NULL);
    } else {
        Py_DECREF(eo);
    }
done:
    cfl_cb_leave(&g);
}

static void throttle_cb(rd_kafka_t *rk, const char *broker_name, int32_t broker_id, int throttle_time_ms,
                        void *opaque) {
    Handle *h = (Handle *)opaque;
    CbGil g;
    cfl_cb_enter(h, &g);
    cfl_state *st = h->st;
    if (st != NULL && !CFL_LOAD_INT(&h->no_callbacks) && h->throttle_cb != NULL && cfl_cb_may_call(&g)) {
        PyObject *cls = cfl_cached_import(&st->ThrottleEvent, "confluent_kafka._model", "ThrottleEvent");
        PyObject *ev = cls ? PyObject_CallFunction(cls, "sid", broker_name, (int)broker_id,
                                                   (double)throttle_time_ms / 1000.0)
                           : NULL;
        call_user(rk, &g, h->throttle_cb, ev);
    }
    cfl_cb_leave(&g);
}

static int stats_cb(rd_kafka_t *rk, char *json, size_t json_len, void *opaque) {
    Handle *h = (Handle *)opaque;
    CbGil g;
    cfl_cb_enter(h, &g);
    if (!CFL_LOAD_INT(&h->no_callbacks) && h->stats_cb != NULL && cfl_cb_may_call(&g))
        call_user(rk, &g, h->stats_cb, PyUnicode_DecodeUTF8(json, (Py_ssize_t)json_len, "replace"));
    cfl_cb_leave(&g);
    return 0; /* librdkafka frees json */
}

/* syslog levels to logging's */
static int python_log_level(int level) {
    static const int map[] = {50, 50, 50, 40, 30, 20, 20, 10};
    return map[level < 0 ? 0 : level > 7 ? 7 : level];
}

static void log_cb(const rd_kafka_t *rk, int level, const char *fac, const char *buf) {
    Handle *h = (Handle *)rd_kafka_opaque(rk);
    CbGil g;
    cfl_cb_enter(h, &g);
    if (!CFL_LOAD_INT(&h->no_callbacks) && h->logger != NULL && cfl_cb_may_call(&g)) {
        /* logger.log(level, "%s [%s] %s", facility, client name, text): a LogRecord whose
         * message reads "FAIL [rdkafka#producer-1] [thrd:...]: ...". */
        PyObject *res = PyObject_CallMethod(h->logger, "log", "issss", python_log_level(level), "%s [%s] %s",
                                            fac, rd_kafka_name(rk), buf);
        if (res == NULL)
            cfl_cb_failed((rd_kafka_t *)rk, &g, h->logger);
        else
            Py_DECREF(res);
    }
    cfl_cb_leave(&g);
}

/* oauth_cb(config) -> (token, expiry_seconds[, principal[, extensions]]) */
static int set_oauth_token(rd_kafka_t *rk, PyObject *res) {
    const char *token, *principal = "";
    double expiry;
    PyObject *extensions = NULL;
    if (!PyTuple_Check(res)) {
        PyErr_Format(PyExc_TypeError,
                     "oauth_cb must return a (token, expiry_seconds[, principal[, extensions]]) tuple, not %.100s",
                     Py_TYPE(res)->tp_name);
        return -1;
    }
    if (!PyArg_ParseTuple(res, "sd|sO!:oauth_cb must return (token, expiry_seconds[, principal[, extensions]])",
                          &token, &expiry, &principal, &PyDict_Type, &extensions))
        return -1;
    Py_ssize_t n = extensions ? PyDict_GET_SIZE(extensions) : 0;
    const char **ext = PyMem_Calloc((size_t)(2 * n + 1), sizeof(char *));
    if (ext == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0, i = 0;
    while (extensions && PyDict_Next(extensions, &pos, &k, &v)) {
        if (!PyUnicode_Check(k) || !PyUnicode_Check(v) || (ext[i] = PyUnicode_AsUTF8(k)) == NULL ||
            (ext[i + 1] = PyUnicode_AsUTF8(v)) == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "oauth_cb extensions must map str to str");
            PyMem_Free(ext);
            return -1;
        }
        i += 2;
    }
    char errstr[512];
    rd_kafka_resp_err_t err = rd_kafka_oauthbearer_set_token(rk, token, (int64_t)(expiry * 1000.0), principal,
                                                             ext, (size_t)i, errstr, sizeof(errstr));
    PyMem_Free(ext);
    if (err) {
        PyErr_Format(PyExc_ValueError, "oauth_cb token rejected: %s", errstr);
        return -1;
    }
    return 0;
}

static void oauth_cb(rd_kafka_t *rk, const char *config, void *opaque) {
    Handle *h = (Handle *)opaque;
    CbGil g;
    int was = on_librdkafka_thread;
    on_librdkafka_thread = 1;
    cfl_cb_enter(h, &g);
    /* On librdkafka's thread no call holds the client: a callback that lets go of the last
     * reference must not free it under this function (the last decref tears it down below). */
    Py_INCREF(h);
    if (!CFL_LOAD_INT(&h->no_callbacks) && h->oauth_cb != NULL) {
        PyObject *res = PyObject_CallFunction(h->oauth_cb, "z", config);
        if (res == NULL || set_oauth_token(rk, res) < 0) {
            PyObject *exc = CFL_FETCH_EXC();
            PyObject *text = exc ? PyObject_Str(exc) : NULL;
            const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
            char named[160];
            if (msg == NULL || msg[0] == '\0') {
                /* librdkafka rejects an empty reason, and then never schedules a retry. */
                PyOS_snprintf(named, sizeof(named), "oauth_cb raised %.100s",
                              exc ? Py_TYPE(exc)->tp_name : "an exception");
                msg = named;
            }
            rd_kafka_oauthbearer_set_token_failure(rk, msg);
            PyErr_Clear();
            Py_XDECREF(text);
            /* The constructor waiting for the first token (another thread) raises it. */
            int handed = 0;
            Py_BEGIN_CRITICAL_SECTION(h);
            if (CFL_LOAD_INT(&h->oauth_state) == 1 && h->oauth_error == NULL) {
                h->oauth_error = exc;
                handed = 1;
            }
            Py_END_CRITICAL_SECTION();
            if (!handed) {
                CFL_RESTORE_EXC(exc);
                PyErr_WriteUnraisable(h->oauth_cb);
            }
        }
        Py_XDECREF(res);
    }
    CFL_STORE_INT(&h->oauth_state, 2);
    Py_DECREF(h);
    cfl_cb_leave(&g);
    on_librdkafka_thread = was;
}

void cfl_handle_set_callbacks(Handle *h, rd_kafka_conf_t *conf) {
    rd_kafka_conf_set_opaque(conf, h);
    rd_kafka_conf_set_error_cb(conf, error_cb);
    if (h->kind == RD_KAFKA_PRODUCER) {
        rd_kafka_conf_set_dr_msg_cb(conf, dr_msg_cb);
    } else {
        rd_kafka_conf_set_rebalance_cb(conf, cfl_consumer_rebalance_cb);
        if (h->on_commit != NULL)
            rd_kafka_conf_set_offset_commit_cb(conf, cfl_consumer_commit_cb);
    }
    if (h->throttle_cb != NULL)
        rd_kafka_conf_set_throttle_cb(conf, throttle_cb);
    if (h->stats_cb != NULL)
        rd_kafka_conf_set_stats_cb(conf, stats_cb);
    if (h->logger != NULL) {
        /* Logs go to the main queue, so they are served (with the GIL) by poll(). */
        rd_kafka_conf_set_log_cb(conf, log_cb);
        rd_kafka_conf_set(conf, "log.queue", "true", NULL, 0);
    }
    if (h->oauth_cb != NULL) {
        rd_kafka_conf_set_oauthbearer_token_refresh_cb(conf, oauth_cb);
        rd_kafka_conf_enable_sasl_queue(conf, 1);
    }
}

/* Whether consumed records' headers may be read from their bytes (cfl_record_headerless): in the
 * librdkafka 2.x whose record layout that relies on, and with no interceptor plugin loaded (one
 * could attach headers to a record that has none on the wire). */
static int peeking_is_safe(rd_kafka_conf_t *conf) {
    char plugins[8];
    return cfl_conf_text(conf, "plugin.library.paths", plugins, sizeof(plugins)) == 0 &&
           rd_kafka_version() < 0x03000000;
}

/* Whether a consumer of this configuration rebalances incrementally, as librdkafka decides it:
 * always under the consumer group protocol (KIP-848); under the classic one when its assignors are
 * cooperative (librdkafka refuses a mix of cooperative and eager assignors). */
static int rebalances_incrementally(rd_kafka_conf_t *conf) {
    char value[256];
    if (cfl_conf_text(conf, "group.protocol", value, sizeof(value)) && !strcmp(value, "consumer"))
        return 1;
    cfl_conf_text(conf, "partition.assignment.strategy", value, sizeof(value));
    return strstr(value, "cooperative") != NULL;
}

/* 0 for a Producer, 1 for a Consumer (or subclasses), -1 for another client type (AdminClient),
 * whose lifecycle texts are its own. */
static int client_type(Handle *h) {
    cfl_state *st = h->st;
    if (st == NULL)
        return -1;
    if (PyObject_TypeCheck((PyObject *)h, st->ProducerType))
        return 0;
    if (PyObject_TypeCheck((PyObject *)h, st->ConsumerType))
        return 1;
    return -1;
}

/* What a client that was closed (or never initialised) keeps: nothing of its last life. */
static void handle_reset(Handle *h) {
    cfl_handle_clear(h);
    CFL_STORE_INT(&h->closed, 0);
    CFL_STORE_INT(&h->closing, 0);
    CFL_STORE_INT(&h->close_flushing, 0);
    CFL_STORE_INT(&h->in_transaction, 0);
    CFL_STORE_INT(&h->no_callbacks, 0);
    CFL_STORE_INT(&h->oauth_state, 0);
    CFL_STORE_INT(&h->rebalance_assigned, 0);
    h->dr_only_error = 0;
    h->iter_timeout_ms = -1;
    h->fork_generation = fork_generation;
}

static int handle_start(Handle *h, rd_kafka_type_t kind, PyObject *args, PyObject *kwargs,
                        void (*before_new)(Handle *, rd_kafka_conf_t *)) {
    int type = client_type(h);
    int closed = CFL_LOAD_INT(&h->closed);
    if (h->rk != NULL || (closed && type < 0)) {
        if (type == 0)
            PyErr_SetString(PyExc_RuntimeError, "Producer already __init__:ialized");
        else if (type == 1)
            PyErr_SetString(PyExc_RuntimeError, "Consumer already initialized");
        else
            PyErr_Format(PyExc_RuntimeError, "%s is already initialized", Py_TYPE(h)->tp_name);
        return -1;
    }
    if (closed)
        handle_reset(h); /* a closed Producer or Consumer may be initialised again, as in confluent-kafka 2.x */
    h->kind = kind;
    rd_kafka_conf_t *conf = cfl_conf_build(h, h->st, args, kwargs);
    if (conf == NULL)
        return -1;
    if (before_new != NULL)
        before_new(h, conf);
    h->peek_headers = peeking_is_safe(conf);
    h->cooperative = kind == RD_KAFKA_CONSUMER && rebalances_incrementally(conf);
    char errstr[512];
    rd_kafka_t *rk;
    Py_BEGIN_ALLOW_THREADS
    rk = rd_kafka_new(kind, conf, errstr, sizeof(errstr));
    Py_END_ALLOW_THREADS
    if (rk == NULL) {
        rd_kafka_conf_destroy(conf); /* still ours when rd_kafka_new fails */
        if (type < 0)
            cfl_raise(h->st, RD_KAFKA_RESP_ERR__INVALID_ARG, errstr);
        else
            cfl_raise_fmt(h->st, RD_KAFKA_RESP_ERR__INVALID_ARG, "Failed to create %s: %s",
                          type == 0 ? "producer" : "consumer", errstr);
        return -1;
    }
    if (kind == RD_KAFKA_CONSUMER) {
        /* Every callback, logs included, is served from poll()/consume(). */
        rd_kafka_poll_set_consumer(rk);
        h->rkqu = rd_kafka_queue_get_consumer(rk);
    }
    CFL_STORE_PTR(&h->rk, rk); /* published last: other threads may use the client from here */
    if (cfl_handle_started(h) < 0) {
        PyObject *exc = CFL_FETCH_EXC();
        cfl_handle_destroy(h);
        CFL_STORE_INT(&h->closed, 1);
        CFL_RESTORE_EXC(exc);
        return -1;
    }
    return 0;
}

int cfl_handle_start(Handle *h, rd_kafka_type_t kind, PyObject *args, PyObject *kwargs,
                     void (*before_new)(Handle *, rd_kafka_conf_t *)) {
    CflUse life;
    if (cfl_lifecycle_claim(h, &life) < 0)
        return -1;
    int rc = handle_start(h, kind, args, kwargs, before_new);
    cfl_lifecycle_release(&life);
    return rc;
}

/* The constructor's first token could not be set: raise at once what upstream raises after its
 * 10 s wait (KafkaException, SASL_AUTHENTICATION_FAILED), naming the callback's exception and
 * chaining it as the cause. A BaseException (KeyboardInterrupt) passes unchanged. */
static void raise_token_not_set(Handle *h, PyObject *exc) {
    cfl_state *st = h->st;
    PyObject *text = NULL;
    const char *s = NULL;
    if (st != NULL && PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_Exception) &&
        (text = PyObject_Str(exc)) != NULL)
        s = PyUnicode_AsUTF8(text);
    if (s == NULL) {
        Py_XDECREF(text);
        PyErr_Clear();
        CFL_RESTORE_EXC(exc);
        return;
    }
    char reason[512];
    PyOS_snprintf(reason, sizeof(reason), "OAuth token not set by oauth_cb: %.100s%s%.380s",
                  Py_TYPE(exc)->tp_name, s[0] ? ": " : "", s);
    Py_DECREF(text);
    cfl_raise(st, RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED, reason);
    PyObject *outer = CFL_FETCH_EXC();
    if (outer == NULL) {
        CFL_RESTORE_EXC(exc);
        return;
    }
    PyException_SetContext(outer, Py_NewRef(exc));
    PyException_SetCause(outer, exc); /* steals exc */
    CFL_RESTORE_EXC(outer);
}

int cfl_handle_started(Handle *h) {
    if (h->logger != NULL)
        rd_kafka_set_log_queue(h->rk, NULL);
    if (h->oauth_cb == NULL)
        return 0;
    /* oauth_cb runs on librdkafka's background thread, so no poll() is needed for the token. */
    rd_kafka_error_t *error = rd_kafka_sasl_background_callbacks_enable(h->rk);
    if (error != NULL) {
        cfl_state *st = h->st;
        if (st != NULL)
            cfl_raise_rd(st, error);
        else
            rd_kafka_error_destroy(error);
        return -1;
    }
    int64_t deadline = now_ms() + CFL_OAUTH_WAIT_MS;
    while (CFL_LOAD_INT(&h->oauth_state) == 1 && now_ms() < deadline) {
        Py_BEGIN_ALLOW_THREADS
        cfl_sleep_ms(10);
        Py_END_ALLOW_THREADS
        if (PyErr_CheckSignals() < 0)
            return -1;
    }
    PyObject *exc;
    Py_BEGIN_CRITICAL_SECTION(h);
    exc = h->oauth_error;
    h->oauth_error = NULL;
    Py_END_CRITICAL_SECTION();
    if (exc != NULL) {
        raise_token_not_set(h, exc);
        return -1;
    }
    return 0;
}

/* ---- lifetime --------------------------------------------------------------------------- */

/* A client without an rd_kafka_t (closed, never initialised, or whose __init__ failed): the
 * RuntimeError confluent-kafka 2.x raises for it. `common`: a method every client type has. */
static int not_usable(Handle *h, int common) {
    int type = client_type(h);
    if (common && type >= 0)
        PyErr_SetString(PyExc_RuntimeError, "Handle has been closed");
    else if (type == 1)
        PyErr_SetString(PyExc_RuntimeError, "Consumer closed");
    else if (type == 0)
        PyErr_SetString(PyExc_RuntimeError, "Producer has been closed");
    else if (CFL_LOAD_INT(&h->closed))
        PyErr_Format(PyExc_RuntimeError, "%s has been closed", kind_name(h));
    else
        PyErr_Format(PyExc_RuntimeError, "%s is not initialized (was __init__ called?)", Py_TYPE(h)->tp_name);
    return -1;
}

static int handle_check(Handle *h, int common) {
    if (CFL_LOAD_PTR(&h->rk) == NULL)
        return not_usable(h, common);
    if (CFL_LOAD_INT(&h->closing) && call_find(h) == NULL) {
        /* Only the closing thread's own callbacks (e.g. a commit in on_revoke) may still call. */
        PyErr_Format(PyExc_RuntimeError, "%s is being closed", kind_name(h));
        return -1;
    }
    if (h->fork_generation != fork_generation) {
        PyErr_Format(PyExc_RuntimeError,
                     "this %s was created before os.fork() and cannot be used in the child process "
                     "(librdkafka's threads do not survive fork); create a new %s in the child",
                     kind_name(h), kind_name(h));
        return -1;
    }
    return 0;
}

int cfl_handle_check(Handle *h) { return handle_check(h, 0); }

int cfl_handle_check_common(Handle *h) { return handle_check(h, 1); }

#ifndef _WIN32
static void *destroy_in_thread(void *rk) {
    /* As the other path below: the client may be freed already, so no callback (a consumer's
     * close would call its rebalance callback) may run. */
    rd_kafka_destroy_flags((rd_kafka_t *)rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
    return NULL;
}
#endif

int cfl_handle_may_close(Handle *h) {
    if (call_find(h) != NULL || use_find(h)) {
        PyErr_Format(PyExc_RuntimeError, "a %s cannot be closed from inside one of its own callbacks",
                     kind_name(h));
        return -1;
    }
    return 0;
}

void cfl_yield_main_queue(Handle *h) {
    rd_kafka_queue_t *q = rd_kafka_queue_get_main(h->rk);
    rd_kafka_queue_yield(q);
    rd_kafka_queue_destroy(q);
}

void cfl_handle_quiesce(Handle *h) {
    CFL_STORE_INT(&h->closing, 1);
    /* Calls on other threads leave once woken, or within one wait slice (or their own timeout). */
    while (CFL_LOAD_INT(&h->active) > 0) {
        if (h->rkqu != NULL) {
            rd_kafka_queue_yield(h->rkqu);
        } else if (h->kind == RD_KAFKA_PRODUCER) {
            cfl_yield_main_queue(h); /* a poll() on another thread: wake it to see the close */
        }
        Py_BEGIN_ALLOW_THREADS
        cfl_sleep_ms(5);
        Py_END_ALLOW_THREADS
    }
}

void cfl_handle_destroy(Handle *h) {
    rd_kafka_t *rk = h->rk;
    if (rk == NULL)
        return;
    cfl_handle_quiesce(h);
    CFL_STORE_INT(&h->no_callbacks, 1);
    if (h->fork_generation != fork_generation) {
        /* An inherited copy: its threads are gone, so librdkafka cannot tear it down. */
        cfl_io_event_teardown(h, 1);
        CFL_STORE_PTR(&h->rk, NULL);
        return;
    }
    CallState cs;
    cfl_call_begin(h, &cs); /* with no_callbacks set this only releases references */
    if (h->kind == RD_KAFKA_PRODUCER) {
        rd_kafka_purge(rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT | RD_KAFKA_PURGE_F_NON_BLOCKING);
        for (int i = 0; i < 50 && rd_kafka_outq_len(rk) > 0; i++) {
            cfl_call_release(&cs);
            rd_kafka_poll(rk, i == 0 ? 0 : 10);
            cfl_call_acquire(&cs);
        }
    }
    if (h->topics != NULL) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        PyObject *last;
        Py_BEGIN_CRITICAL_SECTION(h);
        last = h->last_topic; /* the producer's memo of the last topic: its rkt is destroyed below */
        h->last_topic = NULL;
        h->last_rkt = NULL;
        Py_END_CRITICAL_SECTION();
        Py_XDECREF(last);
        Py_BEGIN_CRITICAL_SECTION(h->topics);
        while (PyDict_Next(h->topics, &pos, &k, &v))
            rd_kafka_topic_destroy((rd_kafka_topic_t *)PyCapsule_GetPointer(v, NULL));
        Py_END_CRITICAL_SECTION();
        PyDict_Clear(h->topics);
    }
    cfl_io_event_teardown(h, 0);
    if (h->rkqu != NULL) {
        rd_kafka_queue_destroy(h->rkqu);
        h->rkqu = NULL;
    }
    CFL_STORE_PTR(&h->rk, NULL);
#ifndef _WIN32
    if (on_librdkafka_thread) {
        /* librdkafka cannot join its own thread: let a helper thread tear it down. */
        pthread_t t;
        if (pthread_create(&t, NULL, destroy_in_thread, rk) == 0) {
            pthread_detach(t);
            cfl_call_end(&cs);
            return;
        }
    }
#endif
    cfl_call_release(&cs);
    /* A consumer that should leave its group did so in close(); never block on it here. */
    rd_kafka_destroy_flags(rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
    cfl_call_acquire(&cs);
    if (cfl_call_end(&cs) < 0)
        PyErr_WriteUnraisable((PyObject *)h);
}

PyObject *cfl_handle_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    Handle *h = (Handle *)type->tp_alloc(type, 0);
    if (h == NULL)
        return NULL;
    h->fork_generation = fork_generation;
    h->iter_timeout_ms = -1;
    if ((h->st = cfl_state_from_type(type)) == NULL) {
        Py_DECREF(h);
        return NULL;
    }
    return (PyObject *)h;
}

int cfl_handle_traverse(Handle *h, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(h));
    Py_VISIT(h->error_cb);
    Py_VISIT(h->throttle_cb);
    Py_VISIT(h->stats_cb);
    Py_VISIT(h->logger);
    Py_VISIT(h->oauth_cb);
    Py_VISIT(h->on_delivery);
    Py_VISIT(h->on_commit);
    Py_VISIT(h->on_assign);
    Py_VISIT(h->on_revoke);
    Py_VISIT(h->on_lost);
    Py_VISIT(h->oauth_error);
    Py_VISIT(h->stash);
    Py_VISIT(h->paused);
    Py_VISIT(h->future_spec);
    return 0;
}

int cfl_handle_clear(Handle *h) {
    Py_CLEAR(h->error_cb);
    Py_CLEAR(h->throttle_cb);
    Py_CLEAR(h->stats_cb);
    Py_CLEAR(h->logger);
    Py_CLEAR(h->oauth_cb);
    Py_CLEAR(h->on_delivery);
    Py_CLEAR(h->on_commit);
    Py_CLEAR(h->on_assign);
    Py_CLEAR(h->on_revoke);
    Py_CLEAR(h->on_lost);
    Py_CLEAR(h->oauth_error);
    Py_CLEAR(h->stash);
    Py_CLEAR(h->last_topic);
    Py_CLEAR(h->paused);
    Py_CLEAR(h->future_spec);
    return 0;
}

void cfl_handle_dealloc(Handle *h) {
    PyTypeObject *tp = Py_TYPE(h);
    PyObject_GC_UnTrack(h);
    if (h->weakreflist != NULL)
        PyObject_ClearWeakRefs((PyObject *)h);
    cfl_handle_destroy(h);
    CFL_STORE_INT(&h->no_callbacks, 1);
    for (size_t i = h->backlog.head; i < h->backlog.len; i++)
        dr_release(&h->backlog.items[i]);
    drq_free(&h->backlog);
    Py_CLEAR(h->topics);
    cfl_handle_clear(h);
    tp->tp_free(h);
    Py_DECREF(tp);
}

PyObject *cfl_handle_set_sasl_credentials(Handle *h, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"username", "password", NULL};
    const char *username, *password;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ss:set_sasl_credentials", kwlist, &username, &password))
        return NULL;
    if (cfl_handle_check_common(h) < 0)
        return NULL;
    rd_kafka_error_t *error;
    CFL_BLOCKING(h, error = rd_kafka_sasl_set_credentials(h->rk, username, password));
    if (error != NULL) {
        cfl_state *st = h->st;
        if (st == NULL) {
            rd_kafka_error_destroy(error);
            return NULL;
        }
        return cfl_raise_rd(st, error);
    }
    Py_RETURN_NONE;
}

PyObject *cfl_handle_enter(Handle *h, PyObject *unused) {
    return Py_NewRef(h); /* even a closed client: with-statements around one are harmless */
}

PyObject *cfl_handle_wait_cluster_id(Handle *h, int timeout_ms) {
    int left = timeout_ms;
    char *id = NULL;
    /* Waits in slices so that Ctrl-C still interrupts a long (or unlimited) wait. */
    for (;;) {
        int slice = left < 0 || left > 200 ? 200 : left;
        CFL_BLOCKING(h, id = rd_kafka_clusterid(h->rk, slice));
        if (id != NULL || (left >= 0 && (left -= slice) <= 0))
            break;
        if (PyErr_CheckSignals() < 0)
            return NULL;
        if (cfl_handle_closing(h)) { /* close() on another thread waits for this call to leave */
            PyErr_Format(PyExc_RuntimeError, "%s is being closed", kind_name(h));
            return NULL;
        }
    }
    if (id == NULL)
        return cfl_raise_fmt(h->st, RD_KAFKA_RESP_ERR__TIMED_OUT,
                             "Failed to retrieve cluster id: %s. The broker must support KIP-78 (>= 0.10.1) "
                             "for the cluster id to be available.",
                             cfl_err_text(RD_KAFKA_RESP_ERR__TIMED_OUT));
    PyObject *s = PyUnicode_FromString(id);
    rd_kafka_mem_free(h->rk, id);
    return s;
}

PyObject *cfl_handle_cluster_id(Handle *h, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"timeout", NULL};
    PyObject *t = NULL;
    int timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kwlist, &t) || cfl_timeout_ms(t, &timeout_ms) < 0 ||
        cfl_handle_check_common(h) < 0)
        return NULL;
    return cfl_handle_wait_cluster_id(h, timeout_ms);
}

PyObject *cfl_handle_reduce(Handle *h, PyObject *unused) {
    PyErr_Format(PyExc_TypeError,
                 "%s objects cannot be pickled: they own network connections and threads. Pass the "
                 "configuration dict instead and create the client in the process that uses it.",
                 Py_TYPE(h)->tp_name);
    return NULL;
}

/* ---- the shared method table entries, run as uses -------------------------------------- */

#define CFL_GUARDED_KW_EXTERN(fn)                                                                 \
    PyObject *fn##_guarded(PyObject *self, PyObject *args, PyObject *kwargs) {                    \
        CFL_GUARD_BODY(fn((void *)self, args, kwargs), PyObject *)                                \
    }
#define CFL_GUARDED_O_EXTERN(fn)                                                                  \
    PyObject *fn##_guarded(PyObject *self, PyObject *arg) { CFL_GUARD_BODY(fn((void *)self, arg), PyObject *) }

CFL_GUARDED_KW_EXTERN(cfl_list_topics)
CFL_GUARDED_KW_EXTERN(cfl_handle_cluster_id)
CFL_GUARDED_KW_EXTERN(cfl_handle_set_sasl_credentials)
CFL_GUARDED_O_EXTERN(cfl_io_event_fd)
CFL_GUARDED_O_EXTERN(cfl_aio_results)
