/* Consumer. */
#include "consumer.h"

#include "conf.h"
#include "error.h"
#include "message.h"
#include "topic_partition.h"

#define CFL_CONSUME_MAX 1000000

/* ---- paused partitions ------------------------------------------------------------------ */

/* The set of paused partitions as a new reference: NULL (no exception) when there is none yet,
 * unless `create`, which makes it (NULL with an exception only then). Threads share it. */
static PyObject *paused_set(Handle *h, int create) {
    PyObject *set = NULL;
    Py_BEGIN_CRITICAL_SECTION(h);
    if (h->paused == NULL && create)
        h->paused = PySet_New(NULL);
    set = Py_XNewRef(h->paused);
    Py_END_CRITICAL_SECTION();
    return set;
}

/* Forget pause state of these partitions (revoked or unassigned: they resume when re-assigned).
 * `keep` non-zero inverts: forget every partition NOT in the list. */
static void paused_forget(Handle *h, const rd_kafka_topic_partition_list_t *c, int keep) {
    PyObject *paused = paused_set(h, 0);
    if (paused == NULL || PySet_GET_SIZE(paused) == 0) {
        Py_XDECREF(paused);
        return;
    }
    PyObject *keys = PySet_New(NULL);
    for (int i = 0; keys != NULL && c != NULL && i < c->cnt; i++) {
        PyObject *k = Py_BuildValue("(si)", c->elems[i].topic, (int)c->elems[i].partition);
        if (k == NULL || PySet_Add(keys, k) < 0)
            Py_CLEAR(keys);
        Py_XDECREF(k);
    }
    if (keys == NULL) {
        PyErr_Clear();
        Py_DECREF(paused);
        return;
    }
    PyObject *res = PyObject_CallMethod(paused, keep ? "intersection_update" : "difference_update", "O", keys);
    Py_DECREF(keys);
    Py_DECREF(paused);
    if (res == NULL)
        PyErr_Clear();
    Py_XDECREF(res);
}

/* ---- callbacks -------------------------------------------------------------------------- */

/* What librdkafka needs done when the user's callback did not assign by itself. Incremental or
 * not is the handle's, known from its configuration: rd_kafka_rebalance_protocol() asks the group
 * thread, which answers "NONE" once close() has unsubscribed and never answers once the group has
 * terminated, so asking there turned close()'s revokes into a full unassign and could hang. */
static rd_kafka_error_t *default_rebalance(rd_kafka_t *rk, int cooperative, rd_kafka_resp_err_t err,
                                           rd_kafka_topic_partition_list_t *partitions) {
    int assign = err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS;
    if (cooperative)
        return assign ? rd_kafka_incremental_assign(rk, partitions) : rd_kafka_incremental_unassign(rk, partitions);
    rd_kafka_resp_err_t e = rd_kafka_assign(rk, assign ? partitions : NULL);
    return e ? rd_kafka_error_new(e, "%s", rd_kafka_err2str(e)) : NULL;
}

void cfl_consumer_rebalance_cb(rd_kafka_t *rk, rd_kafka_resp_err_t err,
                               rd_kafka_topic_partition_list_t *partitions, void *opaque) {
    Handle *h = (Handle *)opaque;
    CbGil g;
    cfl_cb_enter(h, &g);
    CFL_STORE_INT(&h->rebalance_assigned, 0);
    if (err != RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS)
        paused_forget(h, partitions, 0);
    PyObject *cb = NULL;
    if (!CFL_LOAD_INT(&h->no_callbacks) && cfl_cb_may_call(&g)) {
        int lost = err != RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS && rd_kafka_assignment_lost(rk);
        /* A strong reference: subscribe() on another thread may replace the callbacks. */
        Py_BEGIN_CRITICAL_SECTION(h);
        if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS)
            cb = Py_XNewRef(h->on_assign);
        else
            cb = Py_XNewRef(lost && h->on_lost ? h->on_lost : h->on_revoke);
        Py_END_CRITICAL_SECTION();
    }
    if (cb != NULL) {
        PyObject *parts = cfl_tp_list_from_c(h->st, partitions);
        PyObject *res = parts ? PyObject_CallFunctionObjArgs(cb, (PyObject *)h, parts, NULL) : NULL;
        Py_XDECREF(parts);
        if (res == NULL)
            cfl_cb_failed(rk, &g, cb);
        else
            Py_DECREF(res);
        if (g.cs != NULL)
            g.cs->served++;
        Py_DECREF(cb);
    }
    if (!CFL_LOAD_INT(&h->rebalance_assigned)) {
        rd_kafka_error_t *error;
        CFL_BLOCKING(h, error = default_rebalance(rk, h->cooperative, err, partitions));
        if (error != NULL) {
            cfl_raise_rd(h->st, error);
            cfl_cb_failed(rk, &g, NULL);
        }
    }
    cfl_cb_leave(&g);
}

void cfl_consumer_commit_cb(rd_kafka_t *rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *offsets,
                            void *opaque) {
    Handle *h = (Handle *)opaque;
    CbGil g;
    cfl_cb_enter(h, &g);
    if (!CFL_LOAD_INT(&h->no_callbacks) && h->on_commit != NULL && cfl_cb_may_call(&g)) {
        PyObject *e = cfl_error_or_none(h->st, err, NULL);
        PyObject *parts = e ? cfl_tp_list_from_c(h->st, offsets) : NULL;
        PyObject *res = parts ? PyObject_CallFunctionObjArgs(h->on_commit, e, parts, NULL) : NULL;
        Py_XDECREF(e);
        Py_XDECREF(parts);
        if (res == NULL)
            cfl_cb_failed(rk, &g, h->on_commit);
        else
            Py_DECREF(res);
        if (g.cs != NULL)
            g.cs->served++;
    }
    cfl_cb_leave(&g);
}

/* ---- helpers ---------------------------------------------------------------------------- */

static int check(Handle *self) { return cfl_handle_check(self); }

/* The str of a record's topic (which has one), as a new reference: the handle's cache of the last
 * one is reused while the name is the same. Threads consuming from one client share that str, so
 * it is taken and replaced in a critical section, never borrowed (another thread may replace it). */
static PyObject *record_topic(void *handle, const rd_kafka_message_t *rkm) {
    Handle *self = (Handle *)handle;
    const char *name = rd_kafka_topic_name(rkm->rkt);
    PyObject *topic;
    Py_BEGIN_CRITICAL_SECTION(self);
    topic = Py_XNewRef(self->last_topic);
    Py_END_CRITICAL_SECTION();
    const char *last = topic ? PyUnicode_AsUTF8(topic) : NULL;
    if (last == NULL || strcmp(last, name) != 0) {
        Py_XDECREF(topic);
        if ((topic = PyUnicode_FromString(name)) == NULL)
            return NULL;
        PyObject *old;
        Py_BEGIN_CRITICAL_SECTION(self);
        old = self->last_topic;
        self->last_topic = Py_NewRef(topic);
        Py_END_CRITICAL_SECTION();
        Py_XDECREF(old);
    }
    return topic;
}

/* A Message for a fetched record. */
PyObject *cfl_consumer_message(Handle *self, rd_kafka_message_t *rkm) {
    PyObject *topic = NULL;
    if (rkm->rkt != NULL && (topic = record_topic(self, rkm)) == NULL)
        return NULL;
    PyObject *m = cfl_message_from_rkm(self->st, rkm, topic, self->peek_headers);
    Py_XDECREF(topic);
    return m;
}

/* message_build, then release the record. */
static PyObject *message_of(Handle *self, rd_kafka_message_t *rkm) {
    PyObject *m = cfl_consumer_message(self, rkm);
    rd_kafka_message_destroy(rkm);
    return m;
}

/* Keep messages fetched by a call that then raised: the next poll/consume returns them. The
 * stash is the client's, shared by its threads: changed only in a critical section. */
void cfl_consumer_stash(Handle *self, PyObject *list, int front) {
    int rc = -1;
    Py_BEGIN_CRITICAL_SECTION(self);
    if (self->stash == NULL)
        self->stash = PyList_New(0);
    if (self->stash != NULL) {
        Py_ssize_t at = front ? 0 : PyList_GET_SIZE(self->stash);
        rc = PyList_SetSlice(self->stash, at, at, list);
    }
    Py_END_CRITICAL_SECTION();
    if (rc == 0)
        return;
    /* Out of memory: the messages cannot be kept. Say so rather than drop them silently; the
     * caller's own exception, if any, is still the one raised. */
    PyErr_WriteUnraisable(list);
}

Py_ssize_t cfl_consumer_stash_size(Handle *self) {
    Py_ssize_t n;
    Py_BEGIN_CRITICAL_SECTION(self);
    n = self->stash != NULL ? PyList_GET_SIZE(self->stash) : 0;
    Py_END_CRITICAL_SECTION();
    return n;
}

/* Take up to `want` stashed messages: 1 with a new list in *out, 0 when the stash is empty,
 * -1 with an exception. Two threads never take the same message. */
static int stash_take(Handle *self, Py_ssize_t want, PyObject **out) {
    int rc = 0;
    *out = NULL;
    Py_BEGIN_CRITICAL_SECTION(self);
    Py_ssize_t size = self->stash != NULL ? PyList_GET_SIZE(self->stash) : 0;
    if (size > 0) {
        Py_ssize_t n = size < want ? size : want;
        PyObject *head = PyList_GetSlice(self->stash, 0, n);
        if (head == NULL || PyList_SetSlice(self->stash, 0, n, NULL) < 0) {
            Py_XDECREF(head);
            rc = -1;
        } else {
            *out = head;
            rc = 1;
        }
    }
    Py_END_CRITICAL_SECTION();
    return rc;
}

static PyObject *raise_if(Handle *self, rd_kafka_resp_err_t err) {
    if (err)
        return cfl_raise(self->st, err, NULL);
    Py_RETURN_NONE;
}

/* None, or KafkaException(KafkaError(err, "<what failed>: <description of err>")). */
static PyObject *raise_prefixed_if(Handle *self, rd_kafka_resp_err_t err, const char *what) {
    if (err)
        return cfl_raise_prefixed(self->st, err, what);
    Py_RETURN_NONE;
}

static PyObject *raise_rd_if(Handle *self, rd_kafka_error_t *error) {
    if (error != NULL)
        return cfl_raise_rd(self->st, error);
    Py_RETURN_NONE;
}

/* ---- subscribe / assign ----------------------------------------------------------------- */

/* Replace a rebalance callback (a poll on another thread may be reading it: see the callback). */
static void set_rebalance_cb(Handle *h, PyObject **slot, PyObject *v) {
    PyObject *old;
    Py_BEGIN_CRITICAL_SECTION(h);
    old = *slot;
    *slot = v != NULL && v != Py_None ? Py_NewRef(v) : NULL;
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old);
}

static PyObject *Consumer_subscribe(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"topics", "on_assign", "on_revoke", "on_lost", NULL};
    PyObject *topics, *on_assign = NULL, *on_revoke = NULL, *on_lost = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOO:subscribe", kwlist, &topics, &on_assign, &on_revoke,
                                     &on_lost) ||
        check(self) < 0)
        return NULL;
    if (!PyList_Check(topics) && !PyTuple_Check(topics)) {
        PyErr_Format(PyExc_TypeError, "topics must be a list of str, not %.100s", Py_TYPE(topics)->tp_name);
        return NULL;
    }
    PyObject *cbs[3] = {on_assign, on_revoke, on_lost};
    const char *names[3] = {"on_assign", "on_revoke", "on_lost"};
    for (int i = 0; i < 3; i++)
        if (cbs[i] != NULL && cbs[i] != Py_None && !PyCallable_Check(cbs[i])) {
            PyErr_Format(PyExc_TypeError, "%s must be callable, not %.100s", names[i], Py_TYPE(cbs[i])->tp_name);
            return NULL;
        }
    PyObject *seq = cfl_seq_snapshot(topics);
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    rd_kafka_topic_partition_list_t *c = rd_kafka_topic_partition_list_new((int)(n > 0 ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        const char *name = PyUnicode_Check(t) ? PyUnicode_AsUTF8(t) : NULL;
        if (name == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "topics[%zd] must be str, not %.100s", i, Py_TYPE(t)->tp_name);
            rd_kafka_topic_partition_list_destroy(c);
            Py_DECREF(seq);
            return NULL;
        }
        rd_kafka_topic_partition_list_add(c, name, RD_KAFKA_PARTITION_UA);
    }
    Py_DECREF(seq);
    rd_kafka_resp_err_t err;
    CFL_BLOCKING(self, err = rd_kafka_subscribe(self->rk, c));
    rd_kafka_topic_partition_list_destroy(c);
    if (err)
        return cfl_raise_prefixed(self->st, err, "Failed to set subscription");
    set_rebalance_cb(self, &self->on_assign, on_assign);
    set_rebalance_cb(self, &self->on_revoke, on_revoke);
    set_rebalance_cb(self, &self->on_lost, on_lost);
    Py_RETURN_NONE;
}

static PyObject *Consumer_unsubscribe(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    rd_kafka_resp_err_t err;
    CFL_BLOCKING(self, err = rd_kafka_unsubscribe(self->rk));
    return raise_prefixed_if(self, err, "Failed to remove subscription");
}

static PyObject *Consumer_subscription(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    rd_kafka_topic_partition_list_t *c = NULL;
    rd_kafka_resp_err_t err = rd_kafka_subscription(self->rk, &c);
    if (err)
        return cfl_raise(self->st, err, NULL);
    PyObject *list = PyList_New(0);
    for (int i = 0; list != NULL && i < c->cnt; i++) {
        PyObject *t = PyUnicode_FromString(c->elems[i].topic);
        if (t == NULL || PyList_Append(list, t) < 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
    rd_kafka_topic_partition_list_destroy(c);
    return list;
}

/* The partitions of an assignment change, as librdkafka's list; noted as the application's own
 * assignment (no default one after the rebalance callback). NULL with an exception set. */
static rd_kafka_topic_partition_list_t *assignment_change(Handle *self, PyObject *partitions) {
    if (check(self) < 0)
        return NULL;
    rd_kafka_topic_partition_list_t *c = cfl_tp_list_to_c(self->st, partitions, "partitions");
    if (c != NULL)
        CFL_STORE_INT(&self->rebalance_assigned, 1);
    return c;
}

static PyObject *Consumer_assign(Handle *self, PyObject *partitions) {
    rd_kafka_topic_partition_list_t *c = assignment_change(self, partitions);
    if (c == NULL)
        return NULL;
    rd_kafka_resp_err_t err;
    CFL_BLOCKING(self, err = rd_kafka_assign(self->rk, c));
    if (!err)
        paused_forget(self, c, 1);
    rd_kafka_topic_partition_list_destroy(c);
    return raise_prefixed_if(self, err, "Failed to set assignment");
}

static PyObject *Consumer_unassign(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    CFL_STORE_INT(&self->rebalance_assigned, 1);
    rd_kafka_resp_err_t err;
    CFL_BLOCKING(self, err = rd_kafka_assign(self->rk, NULL));
    PyObject *paused = err ? NULL : paused_set(self, 0);
    if (paused != NULL) {
        PySet_Clear(paused);
        Py_DECREF(paused);
    }
    return raise_prefixed_if(self, err, "Failed to remove assignment");
}

typedef rd_kafka_error_t *(*incr_fn)(rd_kafka_t *, const rd_kafka_topic_partition_list_t *);

static PyObject *incremental(Handle *self, PyObject *partitions, incr_fn fn) {
    rd_kafka_topic_partition_list_t *c = assignment_change(self, partitions);
    if (c == NULL)
        return NULL;
    rd_kafka_error_t *error;
    CFL_BLOCKING(self, error = fn(self->rk, c));
    if (error == NULL && fn == rd_kafka_incremental_unassign)
        paused_forget(self, c, 0);
    rd_kafka_topic_partition_list_destroy(c);
    return raise_rd_if(self, error);
}

static PyObject *Consumer_incremental_assign(Handle *self, PyObject *partitions) {
    return incremental(self, partitions, rd_kafka_incremental_assign);
}

static PyObject *Consumer_incremental_unassign(Handle *self, PyObject *partitions) {
    return incremental(self, partitions, rd_kafka_incremental_unassign);
}

static PyObject *Consumer_assignment(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    rd_kafka_topic_partition_list_t *c = NULL;
    rd_kafka_resp_err_t err = rd_kafka_assignment(self->rk, &c);
    if (err)
        return cfl_raise_prefixed(self->st, err, "Failed to get assignment");
    PyObject *list = cfl_tp_list_from_c(self->st, c);
    rd_kafka_topic_partition_list_destroy(c);
    return list;
}

/* ---- poll / consume --------------------------------------------------------------------- */

typedef struct {
    rd_kafka_message_t **msgs;
    Py_ssize_t want, got;
} ConsumeCtx;

static int consume_step(Handle *h, int slice_ms, void *ctx) {
    ConsumeCtx *c = (ConsumeCtx *)ctx;
    if (c->want == 1) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(h->rk, slice_ms);
        if (m != NULL)
            c->msgs[c->got++] = m;
    } else {
        ssize_t r = rd_kafka_consume_batch_queue(h->rkqu, slice_ms, c->msgs + c->got, (size_t)(c->want - c->got));
        if (r > 0)
            c->got += r;
    }
    return c->got == c->want;
}

int cfl_consumer_fetch_records(Handle *self, Py_ssize_t want, int timeout_ms, rd_kafka_message_t **out,
                               Py_ssize_t *got) {
    ConsumeCtx c = {.msgs = out, .want = want};
    int rc = cfl_serve(self, timeout_ms, consume_step, &c, NULL);
    *got = c.got;
    return rc;
}

/* The fetched records as Messages appended to `out` (consumed), the records destroyed and `msgs`
 * freed. When the fetch raised (rc < 0), the Messages are stashed for the next call and the
 * exception is raised again: NULL. */
static PyObject *fetched_messages(Handle *self, PyObject *out, rd_kafka_message_t **msgs, Py_ssize_t got, int rc) {
    PyObject *exc = rc < 0 ? CFL_FETCH_EXC() : NULL;
    for (Py_ssize_t i = 0; i < got; i++) {
        PyObject *m = out ? cfl_consumer_message(self, msgs[i]) : NULL;
        rd_kafka_message_destroy(msgs[i]);
        if (m == NULL || PyList_Append(out, m) < 0)
            Py_CLEAR(out);
        Py_XDECREF(m);
    }
    PyMem_Free(msgs);
    if (exc != NULL) {
        if (out != NULL && PyList_GET_SIZE(out) > 0)
            cfl_consumer_stash(self, out, 0);
        Py_XDECREF(out);
        CFL_RESTORE_EXC(exc);
        return NULL;
    }
    return out;
}

/* Fetch up to `want` messages within timeout_ms. On success a new
 * list of Messages; messages already fetched when a callback raised are stashed for the next call. */
PyObject *cfl_consumer_fetch(Handle *self, Py_ssize_t want, int timeout_ms) {
    /* Messages left over from a call that raised go first. */
    PyObject *out;
    int taken = stash_take(self, want, &out);
    if (taken != 0)
        return taken > 0 ? out : NULL;
    if ((out = PyList_New(0)) == NULL)
        return NULL;
    rd_kafka_message_t **msgs = PyMem_Malloc((size_t)want * sizeof(*msgs));
    if (msgs == NULL) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    Py_ssize_t got;
    int rc = cfl_consumer_fetch_records(self, want, timeout_ms, msgs, &got);
    return fetched_messages(self, out, msgs, got, rc);
}

/* for msg in consumer: errors raise; consumer_timeout_ms of idleness ends the loop. */
static PyObject *Consumer_iter(Handle *self) {
    if (check(self) < 0)
        return NULL;
    return Py_NewRef(self);
}

static PyObject *Consumer_iternext(Handle *self) {
    if (check(self) < 0)
        return NULL;
    for (;;) {
        PyObject *list = cfl_consumer_fetch(self, 1, self->iter_timeout_ms);
        if (list == NULL)
            return NULL;
        if (PyList_GET_SIZE(list) == 0) {
            Py_DECREF(list);
            return NULL; /* StopIteration */
        }
        MessageObject *m = (MessageObject *)Py_NewRef(PyList_GET_ITEM(list, 0));
        Py_DECREF(list);
        if (m->error == NULL)
            return (PyObject *)m;
        if (((KafkaErrorObject *)m->error)->code != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            cfl_raise_error_obj(self->st, m->error);
            Py_DECREF(m);
            return NULL;
        }
        Py_DECREF(m); /* end-of-partition notices are not errors */
    }
}

static const enum cfl_kw poll_params[] = {CFL_KW_timeout};
static const enum cfl_kw consume_params[] = {CFL_KW_num_messages, CFL_KW_timeout};

static PyObject *Consumer_poll(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *t;
    int timeout_ms;
    if (cfl_parse_args(self->st, "poll", args, nargs, kwnames, poll_params, 1, 0, &t) < 0 ||
        cfl_timeout_ms(t, &timeout_ms) < 0 || check(self) < 0)
        return NULL;
    if (cfl_consumer_stash_size(self) == 0) {
        /* The common case, without cfl_consumer_fetch()'s list. */
        rd_kafka_message_t *rkm = NULL;
        ConsumeCtx c = {.msgs = &rkm, .want = 1};
        int rc = cfl_serve(self, timeout_ms, consume_step, &c, NULL);
        if (rc >= 0)
            return rkm != NULL ? message_of(self, rkm) : Py_NewRef(Py_None);
        if (rkm != NULL) {
            PyObject *exc = CFL_FETCH_EXC();
            PyObject *m = message_of(self, rkm);
            PyObject *one = m ? PyList_New(1) : NULL;
            if (one != NULL) {
                PyList_SET_ITEM(one, 0, m);
                cfl_consumer_stash(self, one, 0);
                Py_DECREF(one);
            } else {
                Py_XDECREF(m);
            }
            CFL_RESTORE_EXC(exc);
        }
        return NULL;
    }
    PyObject *list = cfl_consumer_fetch(self, 1, timeout_ms);
    if (list == NULL)
        return NULL;
    PyObject *m = PyList_GET_SIZE(list) ? Py_NewRef(PyList_GET_ITEM(list, 0)) : Py_NewRef(Py_None);
    Py_DECREF(list);
    return m;
}

int cfl_consumer_num_messages(PyObject *obj, Py_ssize_t dflt, Py_ssize_t *out) {
    long n = (long)dflt;
    if (obj != NULL && obj != Py_None) {
        if (!PyLong_Check(obj)) {
            PyErr_Format(PyExc_TypeError, "num_messages must be an int, not %.100s", Py_TYPE(obj)->tp_name);
            return -1;
        }
        n = PyLong_AsLong(obj);
        if (n == -1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError))
                return -1;
            PyErr_Clear();
            n = -1;
        }
    }
    if (n < 1 || n > CFL_CONSUME_MAX) {
        PyErr_Format(PyExc_ValueError, "num_messages must be between 1 and %d, got %R", CFL_CONSUME_MAX, obj);
        return -1;
    }
    *out = (Py_ssize_t)n;
    return 0;
}

/* consume()'s num_messages, read as confluent-kafka 2.x reads it: an unsigned C int (any int is
 * taken modulo 2**32, so -1 is out of range; None or a float is the usual TypeError), 0 to 1M. */
static int consume_count(PyObject *obj, Py_ssize_t *out) {
    unsigned long n = 1;
    if (obj != NULL) {
        if (!PyLong_Check(obj) && !PyIndex_Check(obj)) {
            PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer", Py_TYPE(obj)->tp_name);
            return -1;
        }
        n = PyLong_AsUnsignedLongMask(obj);
        if (n == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        n &= 0xffffffffUL;
    }
    if (n > CFL_CONSUME_MAX) {
        PyErr_SetString(PyExc_ValueError, "num_messages must be between 0 and 1000000 (1M)");
        return -1;
    }
    *out = (Py_ssize_t)n;
    return 0;
}

static PyObject *Consumer_consume(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *a[2];
    int timeout_ms;
    if (cfl_parse_args(self->st, "consume", args, nargs, kwnames, consume_params, 2, 0, a) < 0 ||
        cfl_timeout_ms(a[1], &timeout_ms) < 0)
        return NULL;
    Py_ssize_t n;
    if (consume_count(a[0], &n) < 0 || check(self) < 0)
        return NULL;
    if (n == 0)
        return PyList_New(0);
    /* consume() waits for the whole batch (or the timeout), as librdkafka's batch call does. */
    return cfl_consumer_fetch(self, n, timeout_ms);
}

/* Whether every fetched record is of a partition in `wanted` (a set of (topic, partition)
 * tuples): one lookup per run of records of one partition. 1, 0, or -1 with an exception set. */
static int all_wanted(Handle *self, rd_kafka_message_t **msgs, Py_ssize_t got, PyObject *wanted) {
    for (Py_ssize_t i = 0; i < got; i++) {
        if (i > 0 && msgs[i]->rkt == msgs[i - 1]->rkt && msgs[i]->partition == msgs[i - 1]->partition)
            continue;
        if (msgs[i]->rkt == NULL)
            return 0;
        PyObject *topic = record_topic(self, msgs[i]); /* a new reference */
        PyObject *key = topic != NULL ? Py_BuildValue("(Oi)", topic, (int)msgs[i]->partition) : NULL;
        Py_XDECREF(topic);
        int in = key != NULL ? PySet_Contains(wanted, key) : -1;
        Py_XDECREF(key);
        if (in <= 0)
            return in;
    }
    return 1;
}

/* _consume_records(num_messages, cls, layout, names, by, wanted=None), all positional: what
 * consume(num_messages, 0) returns, as cimpl._records(messages, cls, layout, names, by) makes
 * them records, without a Message per record (the aiokafka facade's getmany()). Messages stashed
 * by an earlier call that raised, a fetched one that carries an error, or (with `wanted`, a set
 * of (topic, partition) tuples) one of a partition not in it make it return the list of Messages
 * itself instead, as consume() would (the caller's general path). */
static PyObject *Consumer_consume_records(Handle *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 5 || nargs > 6) {
        PyErr_Format(PyExc_TypeError, "_consume_records() takes 5 or 6 positional arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *wanted = nargs > 5 && args[5] != Py_None ? args[5] : NULL;
    if (wanted != NULL && !PyAnySet_Check(wanted)) {
        PyErr_Format(PyExc_TypeError, "wanted must be a set or None, not %.100s", Py_TYPE(wanted)->tp_name);
        return NULL;
    }
    Py_ssize_t want;
    if (consume_count(args[0], &want) < 0 || check(self) < 0)
        return NULL;
    CflRecordSpec spec;
    if (cfl_record_spec(&spec, args[1], args[2], args[3], args[4]) < 0)
        return NULL;
    if (cfl_record_spec_slots(self->st, &spec) < 0) {
        cfl_record_spec_release(&spec);
        return NULL;
    }
    PyObject *out = NULL;
    if (want == 0 || cfl_consumer_stash_size(self) > 0) { /* the stash read in a critical section */
        out = want == 0 ? PyList_New(0) : cfl_consumer_fetch(self, want, 0);
        cfl_record_spec_release(&spec);
        return out;
    }
    rd_kafka_message_t **msgs = PyMem_Malloc((size_t)want * sizeof(*msgs));
    if (msgs == NULL) {
        cfl_record_spec_release(&spec);
        return PyErr_NoMemory();
    }
    Py_ssize_t got;
    int rc = cfl_consumer_fetch_records(self, want, 0, msgs, &got);
    int plain = rc >= 0;
    for (Py_ssize_t i = 0; plain && i < got; i++)
        plain = msgs[i]->err == RD_KAFKA_RESP_ERR_NO_ERROR;
    if (plain && wanted != NULL && (plain = all_wanted(self, msgs, got, wanted)) < 0) {
        /* The lookup raised: nothing is lost, the Messages wait for the next call. */
        PyObject *exc = CFL_FETCH_EXC();
        PyObject *kept = fetched_messages(self, PyList_New(0), msgs, got, 0);
        if (kept != NULL) {
            cfl_consumer_stash(self, kept, 1);
            Py_DECREF(kept);
        }
        cfl_record_spec_release(&spec);
        CFL_RESTORE_EXC(exc);
        return NULL;
    }
    if (plain) {
        out = cfl_records_of_fetched(self->st, &spec, msgs, got, record_topic, self, self->peek_headers);
        for (Py_ssize_t i = 0; i < got; i++)
            rd_kafka_message_destroy(msgs[i]);
        PyMem_Free(msgs);
    } else {
        out = PyList_New(0);
        out = fetched_messages(self, out, msgs, got, rc);
    }
    cfl_record_spec_release(&spec);
    return out;
}

/* ---- offsets ---------------------------------------------------------------------------- */

static int offsets_of_message(Handle *self, PyObject *m_error, PyObject *m_topic, int32_t partition, int64_t offset,
                              int32_t leader_epoch, const char *verb, rd_kafka_topic_partition_list_t **out);

/* The offsets to commit/store: from a message (its offset + 1, as upstream: whatever the offset,
 * librdkafka judges it), a list, or NULL for "current". `verb` ("commit" or "store") words the
 * refusal of a message that reports an error. */
static int offsets_arg(Handle *self, PyObject *message, PyObject *offsets, const char *verb,
                       rd_kafka_topic_partition_list_t **out) {
    *out = NULL;
    int have_msg = message != NULL && message != Py_None, have_offsets = offsets != NULL && offsets != Py_None;
    if (have_msg && have_offsets) {
        PyErr_SetString(PyExc_ValueError, "message and offsets are mutually exclusive");
        return -1;
    }
    if (have_offsets)
        return (*out = cfl_tp_list_to_c(self->st, offsets, "offsets")) ? 0 : -1;
    if (!have_msg)
        return 0;
    if (!PyObject_TypeCheck(message, self->st->MessageType)) {
        PyErr_SetString(PyExc_TypeError, "expected confluent_kafka.cimpl.Message");
        return -1;
    }
    MessageObject *m = (MessageObject *)message;
    /* The fields as they are now: another thread may be changing the message (set_topic()...). */
    PyObject *m_error, *m_topic;
    int32_t m_partition, m_leader_epoch;
    int64_t m_offset;
    Py_BEGIN_CRITICAL_SECTION(m);
    m_error = Py_XNewRef(m->error);
    m_topic = Py_XNewRef(m->topic);
    m_partition = m->partition;
    m_offset = m->offset;
    m_leader_epoch = m->leader_epoch;
    Py_END_CRITICAL_SECTION();
    int rc = offsets_of_message(self, m_error, m_topic, m_partition, m_offset, m_leader_epoch, verb, out);
    Py_XDECREF(m_error);
    Py_XDECREF(m_topic);
    return rc;
}

static int offsets_of_message(Handle *self, PyObject *m_error, PyObject *m_topic, int32_t partition, int64_t offset,
                              int32_t leader_epoch, const char *verb, rd_kafka_topic_partition_list_t **out) {
    if (m_error != NULL) {
        PyObject *why = PyObject_TypeCheck(m_error, self->st->KafkaErrorType)
                            ? PyObject_CallMethod(m_error, "str", NULL)
                            : PyUnicode_FromString("(null)");
        PyObject *text = why ? PyUnicode_FromFormat("Cannot %s offsets for message with error: '%S'", verb, why)
                             : NULL;
        if (text != NULL)
            cfl_raise(self->st, RD_KAFKA_RESP_ERR__INVALID_ARG, PyUnicode_AsUTF8(text));
        Py_XDECREF(why);
        Py_XDECREF(text);
        return -1;
    }
    /* A topic that is not a str names no partition of this client: librdkafka says so. */
    const char *topic = m_topic != NULL && PyUnicode_Check(m_topic) ? PyUnicode_AsUTF8(m_topic) : "";
    if (topic == NULL)
        return -1;
    *out = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_t *p = rd_kafka_topic_partition_list_add(*out, topic, partition);
    p->offset = offset < INT64_MAX ? offset + 1 : offset;
    rd_kafka_topic_partition_set_leader_epoch(p, leader_epoch);
    return 0;
}

typedef struct {
    rd_kafka_queue_t *q;
    rd_kafka_event_t *ev;
    int unanswered; /* the group terminated first: no answer will come */
} CommitWait;

/* One slice of waiting for a synchronous commit's answer. A commit made from a rebalance callback
 * that close() serves can reach the group after it left and terminated; librdkafka then drops it
 * without an answer. Once the group has terminated every answer it will give is queued, so
 * nothing there after one more look means the commit was dropped. */
static int commit_step(Handle *h, int slice_ms, void *ctx) {
    CommitWait *c = (CommitWait *)ctx;
    c->ev = rd_kafka_queue_poll(c->q, slice_ms);
    if (c->ev == NULL && rd_kafka_consumer_closed(h->rk)) {
        c->ev = rd_kafka_queue_poll(c->q, 0);
        c->unanswered = c->ev == NULL;
    }
    return c->ev != NULL || c->unanswered;
}

static PyObject *Consumer_commit(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"message", "offsets", "asynchronous", NULL};
    PyObject *message = NULL, *offsets = NULL;
    int asynchronous = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOp:commit", kwlist, &message, &offsets, &asynchronous) ||
        check(self) < 0)
        return NULL;
    rd_kafka_topic_partition_list_t *c;
    if (offsets_arg(self, message, offsets, "commit", &c) < 0)
        return NULL;
    if (asynchronous) {
        rd_kafka_resp_err_t err = rd_kafka_commit(self->rk, c, 1);
        if (c != NULL)
            rd_kafka_topic_partition_list_destroy(c);
        return raise_prefixed_if(self, err, "Commit failed");
    }
    /* Synchronous: wait for the result event on a private queue, interruptibly. */
    CommitWait ec = {.q = rd_kafka_queue_new(self->rk)};
    rd_kafka_resp_err_t err = rd_kafka_commit_queue(self->rk, c, ec.q, NULL, NULL);
    if (c != NULL)
        rd_kafka_topic_partition_list_destroy(c);
    PyObject *result = NULL;
    if (err) {
        cfl_raise_prefixed(self->st, err, "Commit failed");
    } else if (cfl_serve(self, -1, commit_step, &ec, NULL) < 0) {
        /* interrupted: the exception is set */
    } else if (ec.unanswered) {
        cfl_raise(self->st, RD_KAFKA_RESP_ERR__DESTROY,
                  "Commit failed: the consumer left its group and closed before the commit was answered");
    } else if (ec.ev == NULL) { /* close() on another thread stopped the wait */
        PyErr_SetString(PyExc_RuntimeError, "Consumer closed while the commit waited for its answer");
    } else if ((err = rd_kafka_event_error(ec.ev)) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        cfl_raise_prefixed(self->st, err, "Commit failed");
    } else {
        result = cfl_tp_list_from_c(self->st, rd_kafka_event_topic_partition_list(ec.ev));
    }
    if (ec.ev != NULL)
        rd_kafka_event_destroy(ec.ev);
    rd_kafka_queue_destroy(ec.q);
    return result;
}

static PyObject *Consumer_store_offsets(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"message", "offsets", NULL};
    PyObject *message = NULL, *offsets = NULL;
    if (kwargs == NULL && PyTuple_GET_SIZE(args) == 1) {
        message = PyTuple_GET_ITEM(args, 0); /* store_offsets(msg), once per record: no parsing */
        if (check(self) < 0)
            return NULL;
    } else if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:store_offsets", kwlist, &message, &offsets) ||
               check(self) < 0) {
        return NULL;
    }
    rd_kafka_topic_partition_list_t *c;
    if (offsets_arg(self, message, offsets, "store", &c) < 0)
        return NULL;
    if (c == NULL) {
        PyErr_SetString(PyExc_ValueError, "expected either message or offsets");
        return NULL;
    }
    rd_kafka_resp_err_t err = rd_kafka_offsets_store(self->rk, c);
    for (int i = 0; !err && i < c->cnt; i++)
        err = c->elems[i].err;
    rd_kafka_topic_partition_list_destroy(c);
    return raise_prefixed_if(self, err, "StoreOffsets failed");
}

/* committed/offsets_for_times: a blocking list query with the GIL released. */
typedef rd_kafka_resp_err_t (*query_fn)(rd_kafka_t *, rd_kafka_topic_partition_list_t *, int);

static PyObject *list_query(Handle *self, PyObject *args, PyObject *kwargs, const char *fmt, query_fn fn,
                            const char *what) {
    static char *kwlist[] = {"partitions", "timeout", NULL};
    PyObject *partitions, *t = NULL;
    int timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, fmt, kwlist, &partitions, &t) ||
        cfl_timeout_ms(t, &timeout_ms) < 0 || check(self) < 0)
        return NULL;
    rd_kafka_topic_partition_list_t *c = cfl_tp_list_to_c(self->st, partitions, "partitions");
    if (c == NULL)
        return NULL;
    rd_kafka_resp_err_t err;
    CFL_BLOCKING(self, err = fn(self->rk, c, timeout_ms));
    PyObject *result = err ? cfl_raise_prefixed(self->st, err, what) : cfl_tp_list_from_c(self->st, c);
    rd_kafka_topic_partition_list_destroy(c);
    return result;
}

static PyObject *Consumer_committed(Handle *self, PyObject *args, PyObject *kwargs) {
    return list_query(self, args, kwargs, "O|O:committed", rd_kafka_committed, "Failed to get committed offsets");
}

static rd_kafka_resp_err_t offsets_for_times(rd_kafka_t *rk, rd_kafka_topic_partition_list_t *c, int t) {
    return rd_kafka_offsets_for_times(rk, c, t);
}

static PyObject *Consumer_offsets_for_times(Handle *self, PyObject *args, PyObject *kwargs) {
    return list_query(self, args, kwargs, "O|O:offsets_for_times", offsets_for_times, "Failed to get offsets");
}

static PyObject *Consumer_position(Handle *self, PyObject *partitions) {
    if (check(self) < 0)
        return NULL;
    rd_kafka_topic_partition_list_t *c = cfl_tp_list_to_c(self->st, partitions, "partitions");
    if (c == NULL)
        return NULL;
    rd_kafka_resp_err_t err = rd_kafka_position(self->rk, c);
    PyObject *result = err ? cfl_raise_prefixed(self->st, err, "Failed to get position")
                           : cfl_tp_list_from_c(self->st, c);
    rd_kafka_topic_partition_list_destroy(c);
    return result;
}

static PyObject *Consumer_seek(Handle *self, PyObject *partition) {
    if (check(self) < 0)
        return NULL;
    if (!PyObject_TypeCheck(partition, self->st->TopicPartitionType)) {
        PyErr_Format(PyExc_TypeError, "seek() takes a TopicPartition, not %.100s", Py_TYPE(partition)->tp_name);
        return NULL;
    }
    PyObject *one = PyList_New(1);
    if (one == NULL)
        return NULL;
    PyList_SET_ITEM(one, 0, Py_NewRef(partition));
    rd_kafka_topic_partition_list_t *c = cfl_tp_list_to_c(self->st, one, "partition");
    Py_DECREF(one);
    if (c == NULL)
        return NULL;
    rd_kafka_error_t *error;
    CFL_BLOCKING(self, error = rd_kafka_seek_partitions(self->rk, c, -1));
    rd_kafka_resp_err_t err = c->cnt > 0 ? c->elems[0].err : RD_KAFKA_RESP_ERR_NO_ERROR;
    int64_t offset = c->cnt > 0 ? c->elems[0].offset : RD_KAFKA_OFFSET_INVALID;
    rd_kafka_topic_partition_list_destroy(c);
    if (error != NULL) {
        err = rd_kafka_error_code(error);
        rd_kafka_error_destroy(error);
    }
    if (err)
        return cfl_raise_fmt(self->st, err, "Failed to seek to offset %lld: %s", (long long)offset, cfl_err_text(err));
    Py_RETURN_NONE;
}

/* pause()/resume(): librdkafka's call, then the same change to the paused set. A partition this
 * client does not know (librdkafka marks it _UNKNOWN_PARTITION in the list) is skipped, as upstream
 * does: pausing a list that holds a just-revoked partition must not fail for the others. */
static PyObject *pause_resume(Handle *self, PyObject *partitions, int pause) {
    if (check(self) < 0)
        return NULL;
    rd_kafka_topic_partition_list_t *c = cfl_tp_list_to_c(self->st, partitions, "partitions");
    if (c == NULL)
        return NULL;
    rd_kafka_resp_err_t err = pause ? rd_kafka_pause_partitions(self->rk, c) : rd_kafka_resume_partitions(self->rk, c);
    /* Like confluent-kafka 2.x, only the call's own result counts: a partition that is not
     * assigned (its element's err) is not an error. */
    PyObject *paused = err ? NULL : paused_set(self, pause);
    if (!err && pause && paused == NULL) {
        rd_kafka_topic_partition_list_destroy(c);
        return NULL;
    }
    for (int i = 0; !err && i < c->cnt; i++) {
        if (c->elems[i].err)
            continue;
        PyObject *k = Py_BuildValue("(si)", c->elems[i].topic, (int)c->elems[i].partition);
        int rc = k == NULL ? -1 : pause ? PySet_Add(paused, k) : paused ? PySet_Discard(paused, k) : 0;
        Py_XDECREF(k);
        if (rc < 0) {
            Py_XDECREF(paused);
            rd_kafka_topic_partition_list_destroy(c);
            return NULL;
        }
    }
    Py_XDECREF(paused);
    rd_kafka_topic_partition_list_destroy(c);
    return raise_prefixed_if(self, err, pause ? "Failed to pause partitions" : "Failed to resume partitions");
}

static PyObject *Consumer_pause(Handle *self, PyObject *partitions) { return pause_resume(self, partitions, 1); }

static PyObject *Consumer_resume(Handle *self, PyObject *partitions) { return pause_resume(self, partitions, 0); }

static PyObject *Consumer_paused(Handle *self, PyObject *unused) {
    PyObject *assigned = Consumer_assignment(self, NULL);
    if (assigned == NULL)
        return NULL;
    PyObject *out = PyList_New(0), *paused = paused_set(self, 0);
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(assigned); i++) {
        TopicPartitionObject *tp = (TopicPartitionObject *)PyList_GET_ITEM(assigned, i);
        PyObject *k = Py_BuildValue("(Oi)", tp->topic, (int)tp->partition);
        int in = k == NULL ? -1 : paused != NULL ? PySet_Contains(paused, k) : 0;
        Py_XDECREF(k);
        if (in < 0 || (in && PyList_Append(out, (PyObject *)tp) < 0))
            Py_CLEAR(out);
    }
    Py_XDECREF(paused);
    Py_DECREF(assigned);
    return out;
}

static PyObject *Consumer_get_watermark_offsets(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"partition", "timeout", "cached", NULL};
    PyObject *partition, *t = NULL;
    int cached = 0, timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Oi:get_watermark_offsets", kwlist, &partition, &t, &cached) ||
        cfl_timeout_ms(t, &timeout_ms) < 0 || check(self) < 0)
        return NULL;
    if (!PyObject_TypeCheck(partition, self->st->TopicPartitionType)) {
        PyErr_Format(PyExc_TypeError, "partition must be a TopicPartition, not %.100s", Py_TYPE(partition)->tp_name);
        return NULL;
    }
    TopicPartitionObject *tp = (TopicPartitionObject *)partition;
    PyObject *topic_obj;
    int32_t part;
    Py_BEGIN_CRITICAL_SECTION(tp);
    topic_obj = Py_XNewRef(tp->topic);
    part = tp->partition;
    Py_END_CRITICAL_SECTION();
    const char *topic = topic_obj != NULL ? PyUnicode_AsUTF8(topic_obj) : NULL;
    if (topic == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "expected cimpl.TopicPartition");
        Py_XDECREF(topic_obj);
        return NULL;
    }
    int64_t lo = RD_KAFKA_OFFSET_INVALID, hi = RD_KAFKA_OFFSET_INVALID;
    rd_kafka_resp_err_t err;
    if (cached) {
        err = rd_kafka_get_watermark_offsets(self->rk, topic, part, &lo, &hi);
    } else {
        CFL_BLOCKING(self, err = rd_kafka_query_watermark_offsets(self->rk, topic, part, &lo, &hi, timeout_ms));
    }
    Py_DECREF(topic_obj);
    if (err)
        return cfl_raise_prefixed(self->st, err, "Failed to get watermark offsets");
    return Py_BuildValue("(LL)", (long long)lo, (long long)hi);
}

/* The consumer's group metadata (NULL without a group), to be destroyed by the caller.
 * librdkafka's main thread answers: wait for it without the GIL. */
static rd_kafka_consumer_group_metadata_t *group_metadata(Handle *self) {
    rd_kafka_consumer_group_metadata_t *cgmd;
    CFL_BLOCKING(self, cgmd = rd_kafka_consumer_group_metadata(self->rk));
    return cgmd;
}

static PyObject *Consumer_consumer_group_metadata(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    rd_kafka_consumer_group_metadata_t *cgmd = group_metadata(self);
    if (cgmd == NULL)
        return cfl_raise(self->st, RD_KAFKA_RESP_ERR__INVALID_ARG, "consumer has no group metadata (group.id set?)");
    void *buf;
    size_t size;
    rd_kafka_error_t *error = rd_kafka_consumer_group_metadata_write(cgmd, &buf, &size);
    rd_kafka_consumer_group_metadata_destroy(cgmd);
    if (error != NULL)
        return cfl_raise_rd(self->st, error);
    PyObject *bytes = PyBytes_FromStringAndSize(buf, (Py_ssize_t)size);
    rd_kafka_mem_free(self->rk, buf);
    return bytes;
}

/* The facades' view of the membership (aiokafka's coordinator, kafka-python's group_metadata()):
 * what librdkafka's group metadata holds, read with its getters rather than from the private
 * serialized form. */
static PyObject *Consumer_group_membership(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    rd_kafka_consumer_group_metadata_t *cgmd = group_metadata(self);
    if (cgmd == NULL)
        Py_RETURN_NONE;
    const char *member = rd_kafka_consumer_group_metadata_member_id(cgmd);
    PyObject *result = Py_BuildValue("(sisz)", rd_kafka_consumer_group_metadata_group_id(cgmd),
                                     (int)rd_kafka_consumer_group_metadata_generation_id(cgmd),
                                     member != NULL ? member : "",
                                     rd_kafka_consumer_group_metadata_group_instance_id(cgmd));
    rd_kafka_consumer_group_metadata_destroy(cgmd);
    return result;
}

static PyObject *Consumer_memberid(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    char *id = rd_kafka_memberid(self->rk);
    if (id == NULL || *id == '\0') {
        if (id != NULL)
            rd_kafka_mem_free(self->rk, id);
        Py_RETURN_NONE;
    }
    PyObject *s = PyUnicode_FromString(id);
    rd_kafka_mem_free(self->rk, id);
    return s;
}

/* ---- asyncio layer ---------------------------------------------------------------------- */

/* _commit_start(token, message=None, offsets=None): start a commit whose result _aio_results()
 * returns under `token` (an int), waking the asyncio pipe when it is there. */
static PyObject *Consumer_commit_start(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"token", "message", "offsets", NULL};
    PyObject *token, *message = NULL, *offsets = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!|OO:_commit_start", kwlist, &PyLong_Type, &token, &message,
                                     &offsets) ||
        check(self) < 0)
        return NULL;
    void *tok = PyLong_AsVoidPtr(token);
    if (tok == NULL && PyErr_Occurred())
        return NULL;
    rd_kafka_topic_partition_list_t *c;
    if (offsets_arg(self, message, offsets, "commit", &c) < 0)
        return NULL;
    rd_kafka_queue_t *q = cfl_aio_queue(self);
    rd_kafka_resp_err_t err = q != NULL ? rd_kafka_commit_queue(self->rk, c, q, NULL, tok) : 0;
    if (c != NULL)
        rd_kafka_topic_partition_list_destroy(c);
    if (q == NULL)
        return NULL;
    return raise_if(self, err);
}

/* _close_start(): begin leaving the group without blocking; _close_serve() then runs the
 * rebalance callbacks of the leave and returns True once librdkafka has closed the consumer. */
static PyObject *Consumer_close_start(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    int rc = 0;
    rd_kafka_error_t *error = NULL;
    /* Once per client, whichever thread comes first (nothing here blocks or runs Python code). */
    Py_BEGIN_CRITICAL_SECTION(self);
    if (self->close_q == NULL && !rd_kafka_consumer_closed(self->rk)) {
        rd_kafka_queue_t *q = rd_kafka_queue_new(self->rk);
        if (cfl_io_watch(self, q) < 0) {
            rd_kafka_queue_destroy(q);
            rc = -1;
        } else if ((error = rd_kafka_consumer_close_queue(self->rk, q)) != NULL) {
            rd_kafka_queue_destroy(q);
        } else {
            CFL_STORE_PTR(&self->close_q, q);
        }
    }
    Py_END_CRITICAL_SECTION();
    if (error != NULL)
        return cfl_raise_rd(self->st, error);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* Serve what the leave queued, as events: a callback-serving poll would abort on the ops it does
 * not handle itself. Runs with the GIL held (called with a zero timeout only). */
static int close_step(Handle *h, int slice_ms, void *ctx) {
    rd_kafka_event_t *ev;
    rd_kafka_queue_t *q = CFL_LOAD_PTR(&h->close_q);
    while ((ev = rd_kafka_queue_poll(q, 0)) != NULL) {
        switch (rd_kafka_event_type(ev)) {
        case RD_KAFKA_EVENT_REBALANCE:
            cfl_consumer_rebalance_cb(h->rk, rd_kafka_event_error(ev), rd_kafka_event_topic_partition_list(ev), h);
            break;
        case RD_KAFKA_EVENT_OFFSET_COMMIT:
            if (h->on_commit != NULL)
                cfl_consumer_commit_cb(h->rk, rd_kafka_event_error(ev), rd_kafka_event_topic_partition_list(ev), h);
            break;
        default:
            break;
        }
        rd_kafka_event_destroy(ev);
    }
    return rd_kafka_consumer_closed(h->rk);
}

static PyObject *Consumer_close_serve(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    if (CFL_LOAD_PTR(&self->close_q) == NULL)
        return PyBool_FromLong(rd_kafka_consumer_closed(self->rk));
    int rc = cfl_serve(self, 0, close_step, NULL, NULL);
    if (rc < 0)
        return NULL;
    return PyBool_FromLong(rd_kafka_consumer_closed(self->rk));
}

/* _group_closed(): whether the group has left and terminated (nothing served). */
static PyObject *Consumer_group_closed(Handle *self, PyObject *unused) {
    if (check(self) < 0)
        return NULL;
    return PyBool_FromLong(rd_kafka_consumer_closed(self->rk));
}

/* _defer_rebalance(): called from a rebalance callback whose assignment change the caller will
 * make later (after an awaited callback), so the default assign/unassign is skipped. */
static PyObject *Consumer_defer_rebalance(Handle *self, PyObject *unused) {
    CFL_STORE_INT(&self->rebalance_assigned, 1);
    Py_RETURN_NONE;
}

/* _rebalance_finish(assign, partitions): after a deferred rebalance callback, what librdkafka
 * needs done when the callback did not assign by itself (incremental under the cooperative
 * protocol). */
static PyObject *Consumer_rebalance_finish(Handle *self, PyObject *args) {
    int assign;
    PyObject *partitions;
    if (!PyArg_ParseTuple(args, "pO:_rebalance_finish", &assign, &partitions) || check(self) < 0)
        return NULL;
    rd_kafka_topic_partition_list_t *c = cfl_tp_list_to_c(self->st, partitions, "partitions");
    if (c == NULL)
        return NULL;
    if (!assign)
        paused_forget(self, c, 0);
    rd_kafka_error_t *error;
    CFL_BLOCKING(self, error = default_rebalance(self->rk, self->cooperative,
                                                  assign ? RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS
                                                         : RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS, c));
    rd_kafka_topic_partition_list_destroy(c);
    return raise_rd_if(self, error);
}

/* ---- lifetime --------------------------------------------------------------------------- */

static PyObject *close_claimed(Handle *self) {
    if (self->rk == NULL)
        Py_RETURN_NONE; /* closed meanwhile by another thread */
    if (cfl_handle_check(self) == 0) {
        /* Nobody else may poll while librdkafka closes: it serves the queue itself. Calls on
         * other threads return (or raise RuntimeError) first. */
        cfl_handle_quiesce(self);
        /* Leave the group (committing if auto-commit is on); rebalance callbacks run here. */
        CallState cs;
        if (cfl_call_begin(self, &cs) < 0)
            return NULL;
        cfl_call_release(&cs);
        if (!rd_kafka_consumer_closed(self->rk)) /* not already left through _close_start() */
            rd_kafka_consumer_close(self->rk);
        cfl_call_acquire(&cs);
        if (cfl_call_end(&cs) < 0) {
            PyObject *exc = CFL_FETCH_EXC();
            cfl_handle_destroy(self);
            CFL_STORE_INT(&self->closed, 1);
            CFL_RESTORE_EXC(exc);
            return NULL;
        }
    } else {
        PyErr_Clear(); /* inherited through fork(): just forget it */
    }
    cfl_handle_destroy(self);
    CFL_STORE_INT(&self->closed, 1);
    Py_RETURN_NONE;
}

static PyObject *Consumer_close(Handle *self, PyObject *unused) {
    if (CFL_LOAD_PTR(&self->rk) == NULL)
        Py_RETURN_NONE;
    CflUse life;
    if (cfl_handle_may_close(self) < 0 || cfl_lifecycle_claim(self, &life) < 0)
        return NULL;
    PyObject *r = close_claimed(self);
    cfl_lifecycle_release(&life);
    return r;
}

static PyObject *Consumer_exit(Handle *self, PyObject *args) {
    PyObject *r = Consumer_close(self, NULL);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE; /* an exception from the block goes on */
}

static int Consumer_init(Handle *self, PyObject *args, PyObject *kwargs) {
    return cfl_handle_start(self, RD_KAFKA_CONSUMER, args, kwargs, NULL);
}

/* Every method that reaches rk runs as a use of the client (see CFL_GUARD_O). */
CFL_GUARD_KW(Consumer_subscribe)
CFL_GUARD_O(Consumer_unsubscribe)
CFL_GUARD_O(Consumer_subscription)
CFL_GUARD_O(Consumer_assign)
CFL_GUARD_O(Consumer_unassign)
CFL_GUARD_O(Consumer_incremental_assign)
CFL_GUARD_O(Consumer_incremental_unassign)
CFL_GUARD_O(Consumer_assignment)
CFL_GUARD_FAST(Consumer_poll)
CFL_GUARD_FAST(Consumer_consume)
CFL_GUARD_FASTPOS(Consumer_consume_records)
CFL_GUARD_FAST(cfl_consumer_consume_arrow)
CFL_GUARD_KW(Consumer_commit)
CFL_GUARD_KW(Consumer_store_offsets)
CFL_GUARD_KW(Consumer_committed)
CFL_GUARD_KW(Consumer_offsets_for_times)
CFL_GUARD_O(Consumer_position)
CFL_GUARD_O(Consumer_seek)
CFL_GUARD_O(Consumer_pause)
CFL_GUARD_O(Consumer_resume)
CFL_GUARD_O(Consumer_paused)
CFL_GUARD_KW(Consumer_get_watermark_offsets)
CFL_GUARD_O(Consumer_consumer_group_metadata)
CFL_GUARD_O(Consumer_memberid)
CFL_GUARD_O(Consumer_group_membership)
CFL_GUARD_KW(Consumer_commit_start)
CFL_GUARD_O(Consumer_close_start)
CFL_GUARD_O(Consumer_close_serve)
CFL_GUARD_O(Consumer_group_closed)
CFL_GUARD_O(Consumer_rebalance_finish)
CFL_GUARD_ITERNEXT(Consumer_iternext)

#define METH_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
#define METH_FAST(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

static PyMethodDef Consumer_methods[] = {
    {"subscribe", METH_KW(Consumer_subscribe_guarded),
     "subscribe($self, /, topics, on_assign=None, on_revoke=None, on_lost=None)\n--\n\nJoin the group for these topics (names starting with ^ are regular expressions). Callbacks get (consumer, [TopicPartition]); when on_assign does not assign, the consumer assigns by itself."
     "\n\n"
     ":param topics: list of topic names or ^regular expressions.\n"
     ":param on_assign: callable(consumer, partitions) called on assignment.\n"
     ":param on_revoke: callable(consumer, partitions) called on revocation.\n"
     ":param on_lost: callable(consumer, partitions) called when the assignment was lost.\n"
     ":raises TypeError: when topics is not a list or a callback is not callable.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"unsubscribe", (PyCFunction)Consumer_unsubscribe_guarded, METH_NOARGS, "unsubscribe($self, /)\n--\n\nLeave the group and drop the subscription; the assignment is revoked."
     "\n\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"subscription", (PyCFunction)Consumer_subscription_guarded, METH_NOARGS, "subscription($self, /)\n--\n\nReturns list of topic names."
     "\n\n"
     ":returns: list of the subscribed topic names (str).\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"assign", (PyCFunction)Consumer_assign_guarded, METH_O, "assign($self, partitions, /)\n--\n\nReplace the assignment."
     "\n\n"
     ":param partitions: list of TopicPartition (offsets optional).\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"unassign", (PyCFunction)Consumer_unassign_guarded, METH_NOARGS, "unassign($self, /)\n--\n\nStop consuming every assigned partition and clear the assignment."
     "\n\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"incremental_assign", (PyCFunction)Consumer_incremental_assign_guarded, METH_O, "incremental_assign($self, partitions, /)\n--\n\nAdd these partitions (list of TopicPartition, offsets optional) to the assignment; for cooperative rebalancing."
     "\n\n"
     ":param partitions: list of TopicPartition.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"incremental_unassign", (PyCFunction)Consumer_incremental_unassign_guarded, METH_O, "incremental_unassign($self, partitions, /)\n--\n\nRemove these partitions from the assignment; for cooperative rebalancing."
     "\n\n"
     ":param partitions: list of TopicPartition.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"assignment", (PyCFunction)Consumer_assignment_guarded, METH_NOARGS, "assignment($self, /)\n--\n\nReturns list of TopicPartition."
     "\n\n"
     ":returns: list of TopicPartition currently assigned.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"poll", METH_FAST(Consumer_poll_guarded),
     "poll($self, /, timeout=-1)\n--\n\nReturns Message or None.\n\nThe next message or error event, serving callbacks meanwhile."
     "\n\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     ":returns: a Message (check its error()), or None on timeout.\n"
     CFL_DOC_RAISES_CLOSED},
    {"_consume_records", (PyCFunction)(void (*)(void))Consumer_consume_records_guarded, METH_FASTCALL,
     "_consume_records($self, num_messages, cls, layout, names, by, wanted=None, /)\n--\n\nconsume(num_messages, 0) as cimpl._records(messages, cls, layout, names, by), without the Messages; the Messages when one carries an error or is of a partition not in wanted (aiokafka facade)."},
    {"consume", METH_FAST(Consumer_consume_guarded),
     "consume($self, /, num_messages=1, timeout=-1)\n--\n\nReturns list of Message.\n\nUp to num_messages messages, waiting at most timeout seconds for the batch to fill."
     "\n\n"
     ":param num_messages: the most messages to return (1 to 1000000).\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     ":returns: list of Message, possibly empty.\n"
     ":raises ValueError: when num_messages is out of range.\n"
     CFL_DOC_RAISES_CLOSED},
    {"consume_arrow", METH_FAST(cfl_consumer_consume_arrow_guarded),
     "consume_arrow($self, /, num_messages=1000, timeout=-1, headers=True)\n--\n\nReturns ArrowBatch.\n\nUp to num_messages messages as Arrow columns (key, value, topic, partition, offset, timestamp, timestamp_type, headers), built without Message objects; waits like consume(). End-of-partition events are left out; an error is raised after the messages before it have been returned. With headers=False the headers column is all null and no header is read, which is faster for small messages."
     "\n\n"
     ":param num_messages: the most messages to return.\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     ":param headers: read the headers into the headers column.\n"
     ":returns: an ArrowBatch.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"commit", METH_KW(Consumer_commit_guarded),
     "commit($self, /, message=None, offsets=None, asynchronous=True)\n--\n\nCommit the offset after message, the given offsets, or the current positions. Synchronous commits return the committed list."
     "\n\n"
     ":param message: commit the offset after this message.\n"
     ":param offsets: list of TopicPartition to commit.\n"
     ":param asynchronous: return at once instead of waiting for the result.\n"
     ":returns: None when asynchronous, else the committed list of TopicPartition.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"store_offsets", METH_KW(Consumer_store_offsets_guarded), "store_offsets($self, /, message=None, offsets=None)\n--\n\nMark the offset after message, or the given offsets, as the next to commit (with enable.auto.offset.store=false); the next commit, automatic or not, commits them."
     "\n\n"
     ":param message: store the offset after this message.\n"
     ":param offsets: list of TopicPartition to store.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"committed", METH_KW(Consumer_committed_guarded), "committed($self, /, partitions, timeout=-1)\n--\n\nReturns list of TopicPartition."
     "\n\n"
     ":param partitions: list of TopicPartition.\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     ":returns: list of TopicPartition with the committed offsets.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"offsets_for_times", METH_KW(Consumer_offsets_for_times_guarded),
     "offsets_for_times($self, /, partitions, timeout=-1)\n--\n\nReturns list of TopicPartition.\n\nThe earliest offset whose timestamp is >= each partition's offset field (milliseconds)."
     "\n\n"
     ":param partitions: list of TopicPartition whose offset is a timestamp in ms.\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     ":returns: list of TopicPartition with the found offsets.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"position", (PyCFunction)Consumer_position_guarded, METH_O, "position($self, partitions, /)\n--\n\nReturns list of TopicPartition."
     "\n\n"
     ":param partitions: list of TopicPartition.\n"
     ":returns: list of TopicPartition with the current positions.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"seek", (PyCFunction)Consumer_seek_guarded, METH_O, "seek($self, partition, /)\n--\n\nMove the fetch position."
     "\n\n"
     ":param partition: TopicPartition with the offset to fetch next.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"pause", (PyCFunction)Consumer_pause_guarded, METH_O, "pause($self, partitions, /)\n--\n\nStop fetching these partitions."
     "\n\n"
     ":param partitions: list of TopicPartition.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"resume", (PyCFunction)Consumer_resume_guarded, METH_O, "resume($self, partitions, /)\n--\n\nStart fetching these paused partitions again."
     "\n\n"
     ":param partitions: list of TopicPartition.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"paused", (PyCFunction)Consumer_paused_guarded, METH_NOARGS,
     "paused($self, /)\n--\n\nReturns list of TopicPartition.\n\nAssigned partitions currently paused by pause()."
     "\n\n"
     ":returns: list of TopicPartition.\n"
     CFL_DOC_RAISES_CLOSED},
    {"get_watermark_offsets", METH_KW(Consumer_get_watermark_offsets_guarded),
     "get_watermark_offsets($self, /, partition, timeout=-1, cached=False)\n--\n\nReturns (low, high)."
     "\n\n"
     ":param partition: TopicPartition.\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     ":param cached: use the locally cached values instead of asking the broker.\n"
     ":returns: (low, high) tuple of int, or None when cached and unknown.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"consumer_group_metadata", (PyCFunction)Consumer_consumer_group_metadata_guarded, METH_NOARGS,
     "consumer_group_metadata($self, /)\n--\n\nReturns bytes.\n\nFor Producer.send_offsets_to_transaction()."
     "\n\n"
     ":returns: the group metadata, opaque bytes.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"_group_membership", (PyCFunction)Consumer_group_membership_guarded, METH_NOARGS,
     "_group_membership($self, /)\n--\n\n"
     ":returns: (group_id, generation_id, member_id, group_instance_id) as librdkafka holds them "
     "(generation -1 and member id '' before the first join), or None without a group.id.\n"
     CFL_DOC_RAISES_CLOSED},
    {"memberid", (PyCFunction)Consumer_memberid_guarded, METH_NOARGS, "memberid($self, /)\n--\n\nReturns str or None."
     "\n\n"
     ":returns: the group member id (str), or None when not in a group.\n"
     CFL_DOC_RAISES_CLOSED},
    {"close", (PyCFunction)Consumer_close, METH_NOARGS,
     "close($self, /)\n--\n\nLeave the group (committing offsets when auto-commit is on) and release the client. Idempotent; any later call raises RuntimeError."
     "\n\n"
     CFL_DOC_RAISES_KAFKA},
    {"__exit__", (PyCFunction)Consumer_exit, METH_VARARGS, NULL},
    {"_commit_start", METH_KW(Consumer_commit_start_guarded),
     "_commit_start($self, /, token, message=None, offsets=None)\n--\n\nStart a commit whose result _aio_results() returns under token (asyncio layer)."},
    {"_close_start", (PyCFunction)Consumer_close_start_guarded, METH_NOARGS,
     "_close_start($self, /)\n--\n\nBegin leaving the group without blocking (asyncio layer)."},
    {"_close_serve", (PyCFunction)Consumer_close_serve_guarded, METH_NOARGS,
     "_close_serve($self, /)\n--\n\nReturns bool.\n\nServe the group leave started by _close_start(); True once done."},
    {"_group_closed", (PyCFunction)Consumer_group_closed_guarded, METH_NOARGS,
     "_group_closed($self, /)\n--\n\nReturns bool.\n\nWhether the group has left and terminated (serves nothing)."},
    {"_defer_rebalance", (PyCFunction)Consumer_defer_rebalance, METH_NOARGS,
     "_defer_rebalance($self, /)\n--\n\nFrom a rebalance callback: the caller assigns later itself."},
    {"_rebalance_finish", (PyCFunction)Consumer_rebalance_finish_guarded, METH_VARARGS,
     "_rebalance_finish($self, assign, partitions, /)\n--\n\nThe default assign/unassign after a deferred rebalance callback."},
    CFL_IO_EVENT_METHODS,
    CFL_HANDLE_METHODS,
    {NULL},
};

static PyMemberDef Consumer_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(Handle, weakreflist), READONLY},
    {NULL},
};

static PyType_Slot Consumer_slots[] = {
    {Py_tp_doc, "Consumer(conf=None, **kwargs)\n\nA Kafka consumer (balanced group member or manually "
                "assigned). conf is a dict of librdkafka properties plus error_cb, stats_cb, throttle_cb, "
                "oauth_cb, on_commit, logger and consumer_timeout_ms (idle milliseconds that end iteration)."},
    {Py_tp_new, cfl_handle_new},
    {Py_tp_init, Consumer_init},
    {Py_tp_dealloc, cfl_handle_dealloc},
    {Py_tp_traverse, cfl_handle_traverse},
    {Py_tp_clear, cfl_handle_clear},
    {Py_tp_methods, Consumer_methods},
    {Py_tp_members, Consumer_members},
    {Py_tp_iter, Consumer_iter},
    {Py_tp_iternext, Consumer_iternext_guarded},
    {0, NULL},
};

static PyType_Spec Consumer_spec = {
    .name = CFL_QUALNAME("Consumer"),
    .basicsize = sizeof(Handle),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = Consumer_slots,
};

int cfl_consumer_init_type(PyObject *module, cfl_state *st) {
    st->ConsumerType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Consumer_spec, NULL);
    if (st->ConsumerType == NULL)
        return -1;
    return PyModule_AddType(module, st->ConsumerType);
}
