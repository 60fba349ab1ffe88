/* Producer. */
#include "producer.h"

#include "conf.h"
#include "done_batch.h"
#include "error.h"
#include "message.h"
#include "record_future.h"
#include "topic_partition.h"

/* ---- produce ---------------------------------------------------------------------------- */

/* The cached rd_kafka_topic_t for a topic name (borrowed; destroyed with the client, whose
 * close() waits until no call uses it). Threads that meet a new topic at once each make one;
 * the first to reach the cache wins and the others drop theirs. */
rd_kafka_topic_t *cfl_producer_topic(Handle *h, cfl_state *st, PyObject *topic) {
    rd_kafka_topic_t *rkt = NULL;
    Py_BEGIN_CRITICAL_SECTION(h);
    if (h->last_topic == topic) /* the same object as last time: no lookup */
        rkt = h->last_rkt;
    Py_END_CRITICAL_SECTION();
    if (rkt != NULL)
        return rkt;
    PyObject *cap;
    int found = cfl_dict_get_ref(h->topics, topic, &cap);
    if (found != 0) {
        if (found < 0)
            return NULL;
        rkt = (rd_kafka_topic_t *)PyCapsule_GetPointer(cap, NULL);
        Py_DECREF(cap);
        PyObject *old;
        Py_BEGIN_CRITICAL_SECTION(h);
        old = h->last_topic;
        h->last_topic = Py_NewRef(topic);
        h->last_rkt = rkt;
        Py_END_CRITICAL_SECTION();
        Py_XDECREF(old);
        return rkt;
    }
    const char *name = PyUnicode_AsUTF8(topic);
    if (name == NULL)
        return NULL;
    rkt = rd_kafka_topic_new(h->rk, name, NULL);
    if (rkt == NULL) {
        cfl_raise(st, rd_kafka_last_error(), NULL);
        return NULL;
    }
    PyObject *mine = PyCapsule_New(rkt, NULL, NULL);
    int had = mine != NULL ? cfl_dict_setdefault_ref(h->topics, topic, mine, &cap) : -1;
    Py_XDECREF(mine);
    if (had != 0) {
        rd_kafka_topic_destroy(rkt); /* an error, or another thread's is cached: use that one */
        if (had < 0)
            return NULL;
        rkt = (rd_kafka_topic_t *)PyCapsule_GetPointer(cap, NULL);
    }
    Py_DECREF(cap);
    return rkt;
}

/* The payload as a bytes object that can be handed to librdkafka without a copy. */
PyObject *cfl_as_bytes(PyObject *obj, const char *what) {
    if (obj == NULL || obj == Py_None)
        return NULL;
    if (PyBytes_CheckExact(obj))
        return Py_NewRef(obj);
    if (PyUnicode_Check(obj))
        return PyUnicode_AsUTF8String(obj);
    if (PyObject_CheckBuffer(obj))
        return PyBytes_FromObject(obj);
    PyErr_Format(PyExc_TypeError, "%s must be str, bytes, a buffer or None, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return NULL;
}

int cfl_int_arg(PyObject *obj, const char *what, long long dflt, long long lo, long long hi, long long *out) {
    if (obj == NULL || obj == Py_None) {
        *out = dflt;
        return 0;
    }
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s %R is out of range [%lld, %lld]", what, obj, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int produce_failed(cfl_state *st, rd_kafka_resp_err_t err) {
    if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL)
        /* The queue empties as poll() or flush() serve delivery reports. */
        PyErr_SetString(PyExc_BufferError, cfl_err_text(err));
    else
        cfl_raise_prefixed(st, err, "Unable to produce message");
    return -1;
}

int cfl_produce_enqueue(Handle *h, cfl_state *st, rd_kafka_topic_t *rkt, int32_t partition, int msgflags,
                        const void *value, size_t value_len, const void *key, size_t key_len, int64_t timestamp,
                        rd_kafka_headers_t *hdrs, MsgRef *ref, rd_kafka_resp_err_t *rd_err) {
    if (timestamp == 0 && hdrs == NULL) {
        /* What produceva() below does for these arguments, without its argument list. */
        if (rd_kafka_produce(rkt, partition, msgflags, (void *)value, value_len, key, key_len, ref) == 0) {
            *rd_err = RD_KAFKA_RESP_ERR_NO_ERROR;
            return 0;
        }
        *rd_err = rd_kafka_last_error();
        if (*rd_err == RD_KAFKA_RESP_ERR__FATAL) /* produceva() reports the fatal error's own code */
            *rd_err = rd_kafka_fatal_error(h->rk, NULL, 0);
        return produce_failed(st, *rd_err);
    }
    rd_kafka_vu_t vu[8];
    size_t n = 0;
    vu[n].vtype = RD_KAFKA_VTYPE_RKT;
    vu[n++].u.rkt = rkt;
    vu[n].vtype = RD_KAFKA_VTYPE_PARTITION;
    vu[n++].u.i32 = partition;
    vu[n].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
    vu[n++].u.i = msgflags;
    vu[n].vtype = RD_KAFKA_VTYPE_VALUE;
    vu[n].u.mem.ptr = (void *)value;
    vu[n++].u.mem.size = value_len;
    vu[n].vtype = RD_KAFKA_VTYPE_KEY;
    vu[n].u.mem.ptr = (void *)key;
    vu[n++].u.mem.size = key_len;
    vu[n].vtype = RD_KAFKA_VTYPE_OPAQUE;
    vu[n++].u.ptr = ref;
    if (timestamp != 0) {
        vu[n].vtype = RD_KAFKA_VTYPE_TIMESTAMP;
        vu[n++].u.i64 = timestamp;
    }
    if (hdrs != NULL) {
        vu[n].vtype = RD_KAFKA_VTYPE_HEADERS;
        vu[n++].u.headers = hdrs;
    }
    rd_kafka_error_t *error = rd_kafka_produceva(h->rk, vu, n);
    if (error == NULL) {
        *rd_err = RD_KAFKA_RESP_ERR_NO_ERROR;
        return 0;
    }
    if (hdrs != NULL)
        rd_kafka_headers_destroy(hdrs); /* still ours when the call failed */
    *rd_err = rd_kafka_error_code(error);
    rd_kafka_error_destroy(error);
    return produce_failed(st, *rd_err);
}

/* Enqueue one message. Returns 0; or -1 with an exception set (BufferError when the queue is
 * full), *rd_err then holding librdkafka's code, or 0 for a Python argument error. */
int cfl_produce_one(Handle *h, cfl_state *st, const ProduceArgs *a, rd_kafka_resp_err_t *rd_err) {
    *rd_err = RD_KAFKA_RESP_ERR_NO_ERROR;
    if (!PyUnicode_Check(a->topic)) {
        PyErr_Format(PyExc_TypeError, "topic must be str, not %.100s", Py_TYPE(a->topic)->tp_name);
        return -1;
    }
    long long partition, timestamp;
    if (cfl_int_arg(a->partition, "partition", RD_KAFKA_PARTITION_UA, -1, INT32_MAX, &partition) < 0 ||
        cfl_int_arg(a->timestamp, "timestamp", 0, 0, INT64_MAX, &timestamp) < 0)
        return -1;
    PyObject *callback = a->callback != NULL && a->callback != Py_None ? a->callback : h->on_delivery;
    if (callback != NULL && !a->resolve && !PyCallable_Check(callback)) {
        PyErr_Format(PyExc_TypeError, "on_delivery must be callable, not %.100s", Py_TYPE(callback)->tp_name);
        return -1;
    }
    rd_kafka_topic_t *rkt = cfl_producer_topic(h, st, a->topic);
    if (rkt == NULL)
        return -1;

    MsgRef *ref = NULL;
    const void *value = NULL, *key = NULL;
    size_t value_len = 0, key_len = 0;
    Py_buffer vview, kview;
    int have_vview = 0, have_kview = 0, msgflags = RD_KAFKA_MSG_F_COPY, rc = -1;
    if (callback != NULL) {
        /* The report hands back these very objects, and the value travels without a copy. */
        if ((ref = cfl_msgref_new()) == NULL)
            return -1;
        ref->callback = Py_NewRef(callback);
        ref->opaque = Py_XNewRef(a->opaque);
        ref->resolve = (char)a->resolve;
        ref->topic = Py_NewRef(a->topic);
        if (((ref->value = cfl_as_bytes(a->value, "value")) == NULL && PyErr_Occurred()) ||
            ((ref->key = cfl_as_bytes(a->key, "key")) == NULL && PyErr_Occurred()))
            goto fail;
        ref->headers = a->headers != NULL && a->headers != Py_None ? Py_NewRef(a->headers) : NULL;
        if (ref->value != NULL) {
            value = PyBytes_AS_STRING(ref->value);
            value_len = (size_t)PyBytes_GET_SIZE(ref->value);
            msgflags = 0;
        }
        if (ref->key != NULL) {
            key = PyBytes_AS_STRING(ref->key);
            key_len = (size_t)PyBytes_GET_SIZE(ref->key);
        }
    } else if (cfl_bytes_arg(a->value, "value", &value, &value_len, &vview, &have_vview) < 0 ||
               cfl_bytes_arg(a->key, "key", &key, &key_len, &kview, &have_kview) < 0) {
        goto fail;
    }
    rd_kafka_headers_t *hdrs;
    if (cfl_headers_from_py(a->headers, &hdrs) < 0)
        goto fail;

    rc = cfl_produce_enqueue(h, st, rkt, (int32_t)partition, msgflags, value, value_len, key, key_len, timestamp,
                             hdrs, ref, rd_err);
    if (rc == 0)
        ref = NULL; /* librdkafka's now, until the report */
fail:
    cfl_bytes_release(&vview, have_vview);
    cfl_bytes_release(&kview, have_kview);
    if (ref != NULL)
        cfl_msgref_free(ref);
    return rc;
}

static const enum cfl_kw produce_params[] = {CFL_KW_topic,       CFL_KW_value,    CFL_KW_key,
                                             CFL_KW_partition,   CFL_KW_on_delivery, CFL_KW_callback,
                                             CFL_KW_timestamp,   CFL_KW_headers};

static PyObject *Producer_produce(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    cfl_state *st = self->st;
    PyObject *a[8];
    if (cfl_parse_args(st, "produce", args, nargs, kwnames, produce_params, 8, 1, a) < 0 ||
        cfl_handle_check(self) < 0)
        return NULL;
    if (a[4] != NULL && a[4] != Py_None && a[5] != NULL && a[5] != Py_None) {
        PyErr_SetString(PyExc_TypeError, "produce() takes on_delivery or callback, not both");
        return NULL;
    }
    ProduceArgs pa = {.topic = a[0], .value = a[1], .key = a[2], .partition = a[3],
                      .callback = a[4] != NULL && a[4] != Py_None ? a[4] : a[5],
                      .timestamp = a[6], .headers = a[7]};
    rd_kafka_resp_err_t err;
    if (cfl_produce_one(self, st, &pa, &err) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* The positional tail (topic, value=None, key=None, partition=None, timestamp=None,
 * headers=None) of the private produce entry points, starting at args[at] (topic required,
 * the caller has checked nargs). */
static ProduceArgs positional_produce_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t at) {
    PyObject *a[6] = {NULL};
    for (Py_ssize_t i = 0; i < 6 && at + i < nargs; i++)
        a[i] = args[at + i];
    return (ProduceArgs){.topic = a[0], .value = a[1], .key = a[2], .partition = a[3], .timestamp = a[4],
                         .headers = a[5]};
}

/* _produce_with(opaque, callback, topic, value=None, key=None, partition=None, timestamp=None,
 * headers=None), all positional: produce() whose delivery report calls callback(opaque, err, msg).
 * The asyncio layer passes the message's Future as opaque and one shared resolver as callback,
 * so no closure is made per message. */
static PyObject *Producer_produce_with(Handle *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 3 || nargs > 8) {
        PyErr_Format(PyExc_TypeError, "_produce_with() takes 3 to 8 positional arguments (%zd given)", nargs);
        return NULL;
    }
    if (cfl_handle_check(self) < 0)
        return NULL;
    if (!PyCallable_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "callback must be callable, not %.100s", Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    ProduceArgs pa = positional_produce_args(args, nargs, 2);
    pa.opaque = args[0];
    pa.callback = args[1];
    rd_kafka_resp_err_t err;
    if (cfl_produce_one(self, self->st, &pa, &err) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* A spec's tuple of exceptions to ignore: 0, or -1 with TypeError naming `what`. */
static int check_exception_classes(PyObject *ignored, const char *what) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(ignored); i++)
        if (!PyExceptionClass_Check(PyTuple_GET_ITEM(ignored, i))) {
            PyErr_Format(PyExc_TypeError, "%s must hold exception classes", what);
            return -1;
        }
    return 0;
}

/* _produce_awaited(future, spec, topic, value=None, key=None, partition=None, timestamp=None,
 * headers=None), all positional, spec being (fallback, exceptions to ignore, (future class,
 * runner)): produce() whose successful delivery sets future's result to the Message in C, its
 * done-callbacks run with the drain's others by one loop callback (done_batch.c), an exception
 * of spec[1] from set_result() dropped; a failed one calls fallback(future, err, msg). The
 * asyncio layer's produce(). */
static PyObject *Producer_produce_awaited(Handle *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 3 || nargs > 8) {
        PyErr_Format(PyExc_TypeError, "_produce_awaited() takes 3 to 8 positional arguments (%zd given)", nargs);
        return NULL;
    }
    if (cfl_handle_check(self) < 0)
        return NULL;
    PyObject *spec = args[1];
    if (!PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) != 3 || !PyCallable_Check(PyTuple_GET_ITEM(spec, 0)) ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(spec, 1))) {
        PyErr_SetString(PyExc_TypeError, "spec must be (fallback callable, tuple of exceptions to ignore, "
                                         "(future class, done-callback runner))");
        return NULL;
    }
    if (check_exception_classes(PyTuple_GET_ITEM(spec, 1), "spec[1]") < 0 ||
        cfl_done_batch_check(PyTuple_GET_ITEM(spec, 2), "spec[2]") < 0)
        return NULL;
    ProduceArgs pa = positional_produce_args(args, nargs, 2);
    pa.opaque = args[0];
    pa.callback = spec;
    pa.resolve = CFL_RESOLVE_MESSAGE;
    rd_kafka_resp_err_t err;
    if (cfl_produce_one(self, self->st, &pa, &err) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* A _produce_future() spec (see below): 0, or -1 with TypeError. */
static int check_future_spec(Handle *h, PyObject *spec) {
    if (spec == CFL_LOAD_PTR(&h->future_spec))
        return 0; /* checked before, and a tuple cannot change */
    if (!PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) < 4 || PyTuple_GET_SIZE(spec) > 6 ||
        !PyType_Check(PyTuple_GET_ITEM(spec, 0)) || !PyType_Check(PyTuple_GET_ITEM(spec, 1)) ||
        !PyCallable_Check(PyTuple_GET_ITEM(spec, 2)) || !PyTuple_CheckExact(PyTuple_GET_ITEM(spec, 3)) ||
        (PyTuple_GET_SIZE(spec) >= 5 && !PyDict_CheckExact(PyTuple_GET_ITEM(spec, 4)))) {
        PyErr_SetString(PyExc_TypeError, "spec must be (RecordMetadata class, TopicPartition class, fallback "
                                         "callable, tuple of exceptions to ignore[, dict caching TopicPartitions"
                                         "[, (future class, done-callback runner)]])");
        return -1;
    }
    if (PyTuple_GET_SIZE(spec) == 6 && cfl_done_batch_check(PyTuple_GET_ITEM(spec, 5), "spec[5]") < 0)
        return -1;
    if (check_exception_classes(PyTuple_GET_ITEM(spec, 3), "spec[3]") < 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        PyTypeObject *t = (PyTypeObject *)PyTuple_GET_ITEM(spec, i);
        if (!PyType_IsSubtype(t, &PyTuple_Type) || t->tp_itemsize != sizeof(PyObject *)) {
            PyErr_SetString(PyExc_TypeError, "spec's classes must be named tuples");
            return -1;
        }
    }
    if (CFL_LOAD_PTR(&h->future_spec) == NULL && CFL_PUBLISH_PTR(&h->future_spec, spec))
        Py_INCREF(spec);
    return 0;
}

/* _produce_future(future, spec, topic, value=None, key=None, partition=None, timestamp=None,
 * headers=None), all positional: produce() whose successful delivery resolves `future` in C with
 * spec[0](topic, partition, spec[1](topic, partition), offset, timestamp or None, 1 for
 * log-append time else 0, None) (aiokafka's RecordMetadata; both named tuples), through
 * future.set_result() (an exception of the tuple spec[3] from it is dropped); a failed one calls
 * spec[2](future, err, msg). An optional spec[4], a dict, caches the spec[1] values (topic ->
 * {partition: value}) so that reports share them. An optional spec[5], (future class, runner),
 * has the done-callbacks of the futures of that exact class that one drain settles run together
 * by runner(loop, [callback, context, future, ...]) (done_batch.c). The aiokafka facade's send(). */
static PyObject *Producer_produce_future(Handle *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 3 || nargs > 8) {
        PyErr_Format(PyExc_TypeError, "_produce_future() takes 3 to 8 positional arguments (%zd given)", nargs);
        return NULL;
    }
    if (cfl_handle_check(self) < 0 || check_future_spec(self, args[1]) < 0)
        return NULL;
    ProduceArgs pa = positional_produce_args(args, nargs, 2);
    pa.opaque = args[0];
    pa.callback = args[1];
    pa.resolve = CFL_RESOLVE_ASYNCIO;
    rd_kafka_resp_err_t err;
    if (cfl_produce_one(self, self->st, &pa, &err) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* _send_future(args, topic, value, key, partition, timestamp, headers), all positional, args
 * being (future_class, future_kwargs, spec, limit): the aiokafka facade's common send() in one
 * call. When value and key are each exact bytes or None, not both None, of at most `limit` (an
 * int) bytes together, and partition and headers are None, makes future_class(**future_kwargs),
 * produces as _produce_future(future, spec, topic, value, key, None, timestamp) would, and
 * returns the future. Anything else returns None having done nothing: the caller's full path
 * checks it. */
static PyObject *Producer_send_future(Handle *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "_send_future() takes 7 positional arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *conf = args[0], *value = args[2], *key = args[3];
    if (!PyTuple_CheckExact(conf) || PyTuple_GET_SIZE(conf) != 4 || !PyType_Check(PyTuple_GET_ITEM(conf, 0)) ||
        !PyDict_CheckExact(PyTuple_GET_ITEM(conf, 1))) {
        PyErr_SetString(PyExc_TypeError, "_send_future() takes (future class, dict of its keyword arguments, spec, "
                                         "limit) first");
        return NULL;
    }
    PyObject *spec = PyTuple_GET_ITEM(conf, 2), *limit_obj = PyTuple_GET_ITEM(conf, 3);
    if (cfl_handle_check(self) < 0 || check_future_spec(self, spec) < 0)
        return NULL;
    if ((value != Py_None && !PyBytes_CheckExact(value)) || (key != Py_None && !PyBytes_CheckExact(key)) ||
        (value == Py_None && key == Py_None) || args[4] != Py_None || args[6] != Py_None ||
        !PyLong_CheckExact(limit_obj))
        Py_RETURN_NONE;
    Py_ssize_t size = (value != Py_None ? PyBytes_GET_SIZE(value) : 0) + (key != Py_None ? PyBytes_GET_SIZE(key) : 0);
    int overflow;
    long long limit = PyLong_AsLongLongAndOverflow(limit_obj, &overflow);
    if (limit == -1 && PyErr_Occurred())
        return NULL;
    if (overflow < 0 || (!overflow && size > limit))
        Py_RETURN_NONE;
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL)
        return NULL;
    PyObject *fut = PyObject_Call(PyTuple_GET_ITEM(conf, 0), empty, PyTuple_GET_ITEM(conf, 1));
    Py_DECREF(empty);
    if (fut == NULL)
        return NULL;
    ProduceArgs pa = {.opaque = fut, .callback = spec, .topic = args[1], .value = value, .key = key,
                      .timestamp = args[5], .resolve = CFL_RESOLVE_ASYNCIO};
    rd_kafka_resp_err_t err;
    if (cfl_produce_one(self, self->st, &pa, &err) < 0) {
        Py_DECREF(fut);
        return NULL;
    }
    return fut;
}

/* _produce_record(future_class, spec, wait, args, topic, value=None, key=None, partition=None,
 * timestamp=None, headers=None), all positional: the kafka-python facade's send(). Makes
 * future_class(wait, args) (a _RecordFuture subclass; args are (timestamp_ms, key size, value
 * size, header size)), produces as produce() would and returns the future, which a successful
 * delivery settles in C (record_future.c) with its RecordMetadata made from spec as for
 * _produce_future(); a failed one calls spec[2](future, err, msg). Raises as produce() does,
 * BufferError included, having made no future then. */
static PyObject *Producer_produce_record(Handle *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 5 || nargs > 10) {
        PyErr_Format(PyExc_TypeError, "_produce_record() takes 5 to 10 positional arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *cls = args[0];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, self->st->RecordFutureType)) {
        PyErr_SetString(PyExc_TypeError, "_produce_record() takes a _RecordFuture subclass first");
        return NULL;
    }
    if (!PyCallable_Check(args[2])) {
        PyErr_Format(PyExc_TypeError, "wait must be callable, not %.100s", Py_TYPE(args[2])->tp_name);
        return NULL;
    }
    if (cfl_handle_check(self) < 0 || check_future_spec(self, args[1]) < 0 ||
        cfl_record_future_check_args(args[3]) < 0)
        return NULL;
    PyObject *fut = cfl_record_future_new((PyTypeObject *)cls, args[2], args[3]);
    if (fut == NULL)
        return NULL;
    ProduceArgs pa = positional_produce_args(args, nargs, 4);
    pa.opaque = fut;
    pa.callback = args[1];
    pa.resolve = CFL_RESOLVE_RECORD_FUTURE;
    rd_kafka_resp_err_t err;
    if (cfl_produce_one(self, self->st, &pa, &err) < 0) {
        Py_DECREF(fut);
        return NULL;
    }
    return fut;
}

/* ---- serving ---------------------------------------------------------------------------- */

/* poll() while another thread is in flush(): rd_kafka_flush() looks at the count of undelivered
 * messages again only when its own poll serves something or its 10 ms wait ends, so a report
 * served here would leave it waiting. The flush serves every report meanwhile, and poll() waits
 * in 1 ms steps; a report it was already waiting for when the flush began is served, and then
 * makes the flush look again at once (a yield of the queue the flush waits on). */
static int poll_step(Handle *h, int slice_ms, void *ctx) {
    if (CFL_LOAD_INT(&h->flushing) > 0) {
        if (slice_ms > 0)
            cfl_sleep_ms(1);
        return 0;
    }
    int n = rd_kafka_poll(h->rk, slice_ms);
    *(int *)ctx += n;
    if (n > 0 && CFL_LOAD_INT(&h->flushing) > 0)
        cfl_yield_main_queue(h);
    return n;
}

static int flush_step(Handle *h, int slice_ms, void *ctx) {
    return rd_kafka_flush(h->rk, slice_ms) == RD_KAFKA_RESP_ERR_NO_ERROR;
}

/* Flush and serve: 1 once everything queued was delivered and its callbacks ran, 0 when
 * timeout_ms ran out first, -1 when a callback raised. Delivery callbacks run after
 * rd_kafka_flush() returns (they need the GIL), and events that arrive meanwhile (such as the
 * "brokers are down" error that follows the metadata retry which also timed a message out)
 * stay queued: serve those too, with what is left of the timeout, so a flush leaves nothing
 * behind. */
static int flush_serving(Handle *self, int timeout_ms) {
    int64_t deadline = timeout_ms < 0 ? -1 : cfl_monotonic_ms() + timeout_ms;
    for (;;) {
        int rc = cfl_serve(self, timeout_ms, flush_step, NULL, NULL);
        if (rc <= 0 || CFL_LOAD_PTR(&self->rk) == NULL || cfl_handle_closing(self))
            return rc;
        if (rd_kafka_outq_len(self->rk) == 0) {
            if (CFL_SHARED_LOAD_INT(&self->held_reports) == 0)
                return rc;
            /* A poll() on another thread took the last reports from librdkafka and has yet to
             * run their callbacks, which needs the GIL: give it the time. */
            Py_BEGIN_ALLOW_THREADS
            cfl_sleep_ms(1);
            Py_END_ALLOW_THREADS
        }
        if (deadline >= 0) {
            int64_t left = deadline - cfl_monotonic_ms();
            if (left <= 0)
                return rc;
            timeout_ms = (int)left;
        }
    }
}

/* What is not yet delivered: librdkafka's queue, and the reports it let go of that have yet to
 * reach Python (their callbacks run, as upstream's run before librdkafka lets go). */
static int queued(Handle *self) { return rd_kafka_outq_len(self->rk) + CFL_SHARED_LOAD_INT(&self->held_reports); }

/* flush() and close(): meanwhile a poll() on another thread leaves the reports to this thread
 * (poll_step). */
static int flush_all(Handle *self, int timeout_ms) {
    CFL_ADD_INT(&self->flushing, 1);
    int rc = flush_serving(self, timeout_ms);
    CFL_ADD_INT(&self->flushing, -1);
    return rc;
}

static const enum cfl_kw timeout_param[] = {CFL_KW_timeout};

static int parse_timeout(Handle *self, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames, int *timeout_ms) {
    PyObject *t;
    if (cfl_parse_args(self->st, fname, args, nargs, kwnames, timeout_param, 1, 0, &t) < 0 ||
        cfl_timeout_ms(t, timeout_ms) < 0)
        return -1;
    return cfl_handle_check(self);
}

static PyObject *Producer_poll(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    int timeout_ms, ops = 0;
    Py_ssize_t served;
    if (parse_timeout(self, "poll", args, nargs, kwnames, &timeout_ms) < 0)
        return NULL;
    if (cfl_serve(self, timeout_ms, poll_step, &ops, &served) < 0)
        return NULL;
    return PyLong_FromSsize_t(served > ops ? served : ops);
}

static PyObject *Producer_flush(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    int timeout_ms;
    if (parse_timeout(self, "flush", args, nargs, kwnames, &timeout_ms) < 0)
        return NULL;
    int rc = flush_all(self, timeout_ms);
    if (rc < 0)
        return NULL;
    /* Flushed: nothing is left to deliver, whatever event may have arrived since. */
    return PyLong_FromLong(rc > 0 ? 0 : queued(self));
}

static PyObject *Producer_purge(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"in_queue", "in_flight", "blocking", NULL};
    int in_queue = 1, in_flight = 1, blocking = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|ppp:purge", kwlist, &in_queue, &in_flight, &blocking))
        return NULL;
    if (cfl_handle_check(self) < 0)
        return NULL;
    int flags = (in_queue ? RD_KAFKA_PURGE_F_QUEUE : 0) | (in_flight ? RD_KAFKA_PURGE_F_INFLIGHT : 0) |
                (blocking ? 0 : RD_KAFKA_PURGE_F_NON_BLOCKING);
    rd_kafka_resp_err_t err;
    CFL_BLOCKING(self, err = rd_kafka_purge(self->rk, flags));
    if (err)
        return cfl_raise(self->st, err, NULL);
    Py_RETURN_NONE;
}

/* Messages and requests not yet delivered; 0 for a closed client (or a subclass whose __init__
 * never ran: wrappers such as OpenTelemetry's ProxiedProducer forward to another producer). */
static Py_ssize_t Producer_len(Handle *self) {
    if (CFL_LOAD_PTR(&self->rk) == NULL)
        return 0;
    if (cfl_handle_check(self) < 0)
        return -1;
    return queued(self);
}

static int Producer_bool(Handle *self) { return 1; }

static PyObject *close_claimed(Handle *self, int timeout_ms) {
    if (self->rk == NULL)
        Py_RETURN_TRUE; /* closed meanwhile by another thread */
    if (cfl_handle_check(self) < 0) {
        /* A copy inherited through fork(). */
        PyErr_Clear();
        cfl_handle_destroy(self);
        CFL_STORE_INT(&self->closed, 1);
        Py_RETURN_TRUE;
    }
    /* From here calls on other threads raise RuntimeError ("being closed"), and their waits
     * return at the next slice; this thread's flush (and its callbacks) carry on. */
    CFL_STORE_INT(&self->closing, 1);
    if (CFL_LOAD_INT(&self->in_transaction)) {
        /* An open transaction cannot be committed by close(): abort it so nothing half-done stays. */
        rd_kafka_error_t *error;
        CFL_BLOCKING(self, error = rd_kafka_abort_transaction(self->rk, timeout_ms));
        if (error != NULL)
            rd_kafka_error_destroy(error);
        CFL_STORE_INT(&self->in_transaction, 0);
    }
    /* Deliver what can be delivered. A callback that raises (or Ctrl-C) ends the delivering:
     * the client is closed all the same, the reports not yet handed over are dropped, and close()
     * raises that exception, as in confluent-kafka 2.x. */
    CFL_STORE_INT(&self->close_flushing, 1);
    int rc = flush_all(self, timeout_ms);
    if (rc == 0 && rd_kafka_outq_len(self->rk) > 0) {
        /* Out of time: what is left is reported as purged rather than dropped silently. */
        rd_kafka_purge(self->rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
        rc = cfl_serve(self, 1000, flush_step, NULL, NULL);
    }
    CFL_STORE_INT(&self->close_flushing, 0);
    PyObject *exc = rc < 0 ? CFL_FETCH_EXC() : NULL;
    cfl_handle_destroy(self);
    CFL_STORE_INT(&self->closed, 1);
    if (exc != NULL) {
        CFL_RESTORE_EXC(exc);
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *close_impl(Handle *self, int timeout_ms) {
    if (CFL_LOAD_PTR(&self->rk) == NULL)
        Py_RETURN_TRUE; /* already closed */
    CflUse life;
    if (cfl_handle_may_close(self) < 0 || cfl_lifecycle_claim(self, &life) < 0)
        return NULL;
    PyObject *r = close_claimed(self, timeout_ms);
    cfl_lifecycle_release(&life);
    return r;
}

static PyObject *Producer_close(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"timeout", NULL};
    PyObject *t = NULL;
    int timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:close", kwlist, &t) || cfl_timeout_ms(t, &timeout_ms) < 0)
        return NULL;
    return close_impl(self, timeout_ms);
}

static PyObject *Producer_exit(Handle *self, PyObject *args) {
    PyObject *r = close_impl(self, -1);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE; /* an exception from the block goes on */
}

/* ---- transactions ----------------------------------------------------------------------- */

/* Run a blocking transactional call with the GIL released; delivery reports it serves (commit
 * flushes) reach their callbacks. ends_transaction: a commit or abort, which on success leaves
 * no transaction open. */
static PyObject *txn_result(Handle *self, CallState *cs, rd_kafka_error_t *error, int ends_transaction) {
    cfl_call_acquire(cs);
    /* With the GIL: a begin_transaction() on another thread meanwhile stores under it too. */
    if (error == NULL && ends_transaction)
        CFL_STORE_INT(&self->in_transaction, 0); /* committed or aborted */
    if (cfl_call_end(cs) < 0) {
        if (error != NULL)
            rd_kafka_error_destroy(error);
        return NULL;
    }
    if (error != NULL)
        return cfl_raise_rd(self->st, error);
    Py_RETURN_NONE;
}

typedef rd_kafka_error_t *(*txn_timeout_fn)(rd_kafka_t *, int);

static PyObject *txn_with_timeout(Handle *self, PyObject *args, PyObject *kwargs, const char *fmt,
                                  txn_timeout_fn fn) {
    static char *kwlist[] = {"timeout", NULL};
    PyObject *t = NULL;
    int timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, fmt, kwlist, &t) || cfl_timeout_ms(t, &timeout_ms) < 0 ||
        cfl_handle_check(self) < 0)
        return NULL;
    CallState cs;
    if (cfl_call_begin(self, &cs) < 0)
        return NULL;
    cfl_call_release(&cs);
    rd_kafka_error_t *error = fn(self->rk, timeout_ms);
    return txn_result(self, &cs, error, fn != rd_kafka_init_transactions);
}

static PyObject *Producer_init_transactions(Handle *self, PyObject *args, PyObject *kwargs) {
    return txn_with_timeout(self, args, kwargs, "|O:init_transactions", rd_kafka_init_transactions);
}

static PyObject *Producer_commit_transaction(Handle *self, PyObject *args, PyObject *kwargs) {
    return txn_with_timeout(self, args, kwargs, "|O:commit_transaction", rd_kafka_commit_transaction);
}

static PyObject *Producer_abort_transaction(Handle *self, PyObject *args, PyObject *kwargs) {
    return txn_with_timeout(self, args, kwargs, "|O:abort_transaction", rd_kafka_abort_transaction);
}

/* _end_transaction(commit, timeout): commit_transaction() (commit true) or abort_transaction(),
 * called from a thread beside the one that serves the client (the asyncio layer's loop): the
 * delivery reports the commit's flush serves are left for that thread, and one call does the
 * whole exchange, since a sliced one is not safe (librdkafka resets a commit whose first step
 * timed out while that step still runs, and then takes the commit's answer for an abort's). */
static PyObject *Producer_end_transaction(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"commit", "timeout", NULL};
    int commit;
    PyObject *t = NULL;
    int timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "p|O:_end_transaction", kwlist, &commit, &t) ||
        cfl_timeout_ms(t, &timeout_ms) < 0 ||
        cfl_handle_check(self) < 0)
        return NULL;
    CallState cs;
    cfl_call_begin_aside(self, &cs);
    cfl_call_release(&cs);
    rd_kafka_error_t *error = commit ? rd_kafka_commit_transaction(self->rk, timeout_ms)
                                     : rd_kafka_abort_transaction(self->rk, timeout_ms);
    return txn_result(self, &cs, error, 1);
}

static PyObject *Producer_begin_transaction(Handle *self, PyObject *unused) {
    if (cfl_handle_check(self) < 0)
        return NULL;
    rd_kafka_error_t *error = rd_kafka_begin_transaction(self->rk);
    if (error != NULL)
        return cfl_raise_rd(self->st, error);
    CFL_STORE_INT(&self->in_transaction, 1);
    Py_RETURN_NONE;
}

static PyObject *Producer_send_offsets_to_transaction(Handle *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"positions", "group_metadata", "timeout", NULL};
    PyObject *positions, *md, *t = NULL;
    int timeout_ms;
    if (kwargs == NULL && PyTuple_GET_SIZE(args) < 2) { /* upstream's text for positional calls */
        PyErr_Format(PyExc_TypeError, "function takes at least 2 arguments (%zd given)", PyTuple_GET_SIZE(args));
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O:send_offsets_to_transaction", kwlist, &positions, &md, &t))
        return NULL;
    rd_kafka_consumer_group_metadata_t *cgmd = NULL;
    rd_kafka_topic_partition_list_t *offsets = NULL;
    PyObject *result = NULL;
    if (cfl_timeout_ms(t, &timeout_ms) < 0 || cfl_handle_check(self) < 0 ||
        (offsets = cfl_tp_list_to_c(self->st, positions, "positions")) == NULL)
        goto done;
    /* Only what consumer_group_metadata() returns (bytes), checked after the positions as
     * upstream does, with its text. */
    if (!PyBytes_Check(md)) {
        PyErr_Format(PyExc_TypeError, "expected bytes, %s found", Py_TYPE(md)->tp_name);
        goto done;
    }
    rd_kafka_error_t *error =
        rd_kafka_consumer_group_metadata_read(&cgmd, PyBytes_AS_STRING(md), (size_t)PyBytes_GET_SIZE(md));
    if (error != NULL) {
        cfl_raise_rd(self->st, error);
        goto done;
    }
    CallState cs;
    if (cfl_call_begin(self, &cs) < 0)
        goto done;
    cfl_call_release(&cs);
    error = rd_kafka_send_offsets_to_transaction(self->rk, offsets, cgmd, timeout_ms);
    result = txn_result(self, &cs, error, 0);
done:
    if (offsets != NULL)
        rd_kafka_topic_partition_list_destroy(offsets);
    if (cgmd != NULL)
        rd_kafka_consumer_group_metadata_destroy(cgmd);
    return result;
}

/* ---- type ------------------------------------------------------------------------------- */

static int Producer_init(Handle *self, PyObject *args, PyObject *kwargs) {
    if (CFL_LOAD_PTR(&self->topics) == NULL) {
        PyObject *topics = PyDict_New();
        if (topics == NULL)
            return -1;
        if (!CFL_PUBLISH_PTR(&self->topics, topics))
            Py_DECREF(topics); /* another thread's __init__ made it first */
    }
    return cfl_handle_start(self, RD_KAFKA_PRODUCER, args, kwargs, NULL);
}

/* Every method that reaches rk runs as a use of the client (see CFL_GUARD_O). */
CFL_GUARD_FAST(Producer_produce)
CFL_GUARD_FAST(cfl_producer_produce_batch)
CFL_GUARD_FASTPOS(Producer_produce_with)
CFL_GUARD_FASTPOS(Producer_produce_awaited)
CFL_GUARD_FASTPOS(Producer_produce_future)
CFL_GUARD_FASTPOS(Producer_send_future)
CFL_GUARD_FASTPOS(Producer_produce_record)
CFL_GUARD_FAST(Producer_poll)
CFL_GUARD_FAST(Producer_flush)
CFL_GUARD_KW(Producer_purge)
CFL_GUARD_KW(Producer_init_transactions)
CFL_GUARD_O(Producer_begin_transaction)
CFL_GUARD_KW(Producer_send_offsets_to_transaction)
CFL_GUARD_KW(Producer_commit_transaction)
CFL_GUARD_KW(Producer_abort_transaction)
CFL_GUARD_KW(Producer_end_transaction)
CFL_GUARD_LEN(Producer_len)

static PyMethodDef Producer_methods[] = {
    {"produce", (PyCFunction)(void (*)(void))Producer_produce_guarded, METH_FASTCALL | METH_KEYWORDS,
     "produce($self, /, topic, value=None, key=None, partition=-1, on_delivery=None, callback=None, timestamp=0, headers=None)\n--\n\nEnqueue a message. The delivery callback, called as cb(err, msg) from poll(), flush() or close(), gets err=None on success. Raises BufferError when the local queue is full."
     "\n\n"
     ":param topic: topic name (str).\n"
     ":param value: payload: bytes, str or None (str is UTF-8 encoded).\n"
     ":param key: key: bytes, str or None.\n"
     ":param partition: partition, or -1 for the configured partitioner.\n"
     ":param on_delivery: delivery callback cb(err, msg); overrides the conf's on_delivery.\n"
     ":param callback: alias of on_delivery.\n"
     ":param timestamp: create time in milliseconds since the epoch; 0 means now.\n"
     ":param headers: dict or list of (str, bytes|str|None) pairs.\n"
     ":raises BufferError: when the local queue is full (poll() or flush(), then retry).\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"produce_batch", (PyCFunction)(void (*)(void))cfl_producer_produce_batch_guarded, METH_FASTCALL | METH_KEYWORDS,
     "produce_batch($self, /, topic, messages=None, partition=-1, callback=None, on_delivery=None, *, keys=None, headers=None, timestamps=None, values=None)\n--\n\nReturns int.\n\n"
     "Enqueue many messages for one topic; returns how many were enqueued.\n\n"
     "messages is either a list of dicts (value, key, partition, headers, timestamp, callback), where each one that cannot be enqueued gets an '_error' KafkaError; "
     "or the values: a sequence of bytes/str/None or an Arrow binary/string array (any object with __arrow_c_array__), with keys, headers and timestamps (ms) "
     "as sequences or Arrow arrays of the same length, and partition an int or one per message. "
     "The values form checks every argument before enqueuing anything, then enqueues in order until librdkafka refuses a message (e.g. a full queue): "
     "the count tells how many went, and if the very first is refused the call raises as produce() would."
     "\n\n"
     ":param topic: topic name (str).\n"
     ":param messages: list of dicts, or the values as a sequence or Arrow array.\n"
     ":param partition: partition for every message (-1: partitioner), or one per message.\n"
     ":param callback: delivery callback cb(err, msg) for every message.\n"
     ":param on_delivery: alias of callback.\n"
     ":param keys: keys, same length as the values (values form only).\n"
     ":param headers: headers, one entry per message (values form only).\n"
     ":param timestamps: timestamps in ms, one per message (values form only).\n"
     ":param values: the values, when not given as messages.\n"
     ":returns: the number of messages enqueued (int).\n"
     ":raises TypeError: when an argument has the wrong type.\n"
     ":raises ValueError: when the per-message sequences differ in length.\n"
     ":raises BufferError: when the first message of the values form is refused for a full queue.\n"
     CFL_DOC_RAISES_CLOSED},
    {"_produce_with", (PyCFunction)(void (*)(void))Producer_produce_with_guarded, METH_FASTCALL,
     "_produce_with($self, opaque, callback, topic, value=None, key=None, partition=None, timestamp=None, headers=None, /)\n--\n\nproduce() whose delivery report calls callback(opaque, err, msg) (asyncio layer)."},
    {"_produce_awaited", (PyCFunction)(void (*)(void))Producer_produce_awaited_guarded, METH_FASTCALL,
     "_produce_awaited($self, future, spec, topic, value=None, key=None, partition=None, timestamp=None, headers=None, /)\n--\n\nproduce() whose successful delivery sets future's result to the Message in C, spec being (fallback, exceptions to ignore, (future class, runner)) (asyncio layer)."},
    {"_produce_future", (PyCFunction)(void (*)(void))Producer_produce_future_guarded, METH_FASTCALL,
     "_produce_future($self, future, spec, topic, value=None, key=None, partition=None, timestamp=None, headers=None, /)\n--\n\nproduce() whose delivery resolves future with a RecordMetadata built in C (aiokafka facade)."},
    {"_send_future", (PyCFunction)(void (*)(void))Producer_send_future_guarded, METH_FASTCALL,
     "_send_future($self, args, topic, value, key, partition, timestamp, headers, /)\n--\n\nThe aiokafka facade's common send(), args being (future_class, future_kwargs, spec, limit): _produce_future() of a new future_class(**future_kwargs) for exact bytes within limit, no partition and no headers; returns the future, or None (nothing done) for any other call."},
    {"_produce_record", (PyCFunction)(void (*)(void))Producer_produce_record_guarded, METH_FASTCALL,
     "_produce_record($self, future_class, spec, wait, args, topic, value=None, key=None, partition=None, timestamp=None, headers=None, /)\n--\n\nThe kafka-python facade's send(): produce() of a new future_class(wait, args), a _RecordFuture that a successful delivery settles in C; returns the future."},
    {"poll", (PyCFunction)(void (*)(void))Producer_poll_guarded, METH_FASTCALL | METH_KEYWORDS,
     "poll($self, /, timeout=-1)\n--\n\nReturns int.\n\nServe delivery reports and other callbacks; returns as soon as something was served, or after timeout seconds (None or negative: wait forever)."
     "\n\n"
     ":param timeout: seconds to wait; None or negative waits without limit.\n"
     ":returns: the number of events served (int).\n"
     CFL_DOC_RAISES_CLOSED},
    {"flush", (PyCFunction)(void (*)(void))Producer_flush_guarded, METH_FASTCALL | METH_KEYWORDS,
     "flush($self, /, timeout=-1)\n--\n\nReturns int.\n\nSend everything queued (ignoring linger.ms) and serve the delivery reports; returns the number of messages still queued."
     "\n\n"
     ":param timeout: seconds to wait; None or negative waits without limit.\n"
     ":returns: the number of messages still in the queue (int); 0 when all were delivered.\n"
     CFL_DOC_RAISES_CLOSED},
    {"purge", (PyCFunction)(void (*)(void))Producer_purge_guarded, METH_VARARGS | METH_KEYWORDS,
     "purge($self, /, in_queue=True, in_flight=True, blocking=True)\n--\n\nDrop queued (in_queue) and/or in-flight (in_flight) messages; each is reported to its callback with _PURGE_QUEUE or _PURGE_INFLIGHT on the next poll()/flush(). blocking=False does not wait for librdkafka's threads to finish purging."
     "\n\n"
     ":param in_queue: purge messages not yet sent.\n"
     ":param in_flight: purge messages sent and awaiting an answer.\n"
     ":param blocking: wait for librdkafka's threads to finish purging.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"close", (PyCFunction)(void (*)(void))Producer_close, METH_VARARGS | METH_KEYWORDS,
     "close($self, /, timeout=-1)\n--\n\nReturns True.\n\nAbort an open transaction, flush, report anything still undelivered as purged, and release the client. Idempotent; any later call raises RuntimeError."
     "\n\n"
     ":param timeout: seconds to wait for the flush; None or negative waits without limit.\n"
     ":returns: True.\n"},
    {"__exit__", (PyCFunction)Producer_exit, METH_VARARGS, NULL},
    {"init_transactions", (PyCFunction)(void (*)(void))Producer_init_transactions_guarded, METH_VARARGS | METH_KEYWORDS,
     "init_transactions($self, /, timeout=-1)\n--\n\nRegister transactional.id with the coordinator, fencing older instances."
     "\n\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"begin_transaction", (PyCFunction)Producer_begin_transaction_guarded, METH_NOARGS, "begin_transaction($self, /)\n--\n\nStart a transaction: messages produced until commit_transaction() or abort_transaction() belong to it. Needs init_transactions() first."
     "\n\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"send_offsets_to_transaction", (PyCFunction)(void (*)(void))Producer_send_offsets_to_transaction_guarded,
     METH_VARARGS | METH_KEYWORDS,
     "send_offsets_to_transaction($self, /, positions, group_metadata, timeout=-1)\n--\n\nCommit consumer offsets (next offsets to read) as part of the transaction; group_metadata comes from Consumer.consumer_group_metadata()."
     "\n\n"
     ":param positions: list of TopicPartition, offsets the next to read.\n"
     ":param group_metadata: from Consumer.consumer_group_metadata().\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"commit_transaction", (PyCFunction)(void (*)(void))Producer_commit_transaction_guarded, METH_VARARGS | METH_KEYWORDS,
     "commit_transaction($self, /, timeout=-1)\n--\n\nFlush and commit the current transaction."
     "\n\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"abort_transaction", (PyCFunction)(void (*)(void))Producer_abort_transaction_guarded, METH_VARARGS | METH_KEYWORDS,
     "abort_transaction($self, /, timeout=-1)\n--\n\nPurge and abort the current transaction."
     "\n\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"_end_transaction", (PyCFunction)(void (*)(void))Producer_end_transaction_guarded, METH_VARARGS | METH_KEYWORDS,
     "_end_transaction($self, /, commit, timeout=-1)\n--\n\ncommit_transaction() (commit true) or abort_transaction() "
     "from a thread beside the one that polls this producer: the delivery reports it serves are left for that "
     "thread's next poll, and the wake-up pipe tells it to poll (confluent_kafka.aio)."},
    CFL_IO_EVENT_METHODS,
    CFL_HANDLE_METHODS,
    {NULL},
};

static PyMemberDef Producer_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(Handle, weakreflist), READONLY},
    {NULL},
};

static PyType_Slot Producer_slots[] = {
    {Py_tp_doc, "Producer(conf=None, **kwargs)\n\nAn asynchronous Kafka producer. conf is a dict of "
                "librdkafka properties plus error_cb, stats_cb, throttle_cb, oauth_cb, on_delivery and "
                "logger; keyword arguments are merged over it."},
    {Py_tp_new, cfl_handle_new},
    {Py_tp_init, Producer_init},
    {Py_tp_dealloc, cfl_handle_dealloc},
    {Py_tp_traverse, cfl_handle_traverse},
    {Py_tp_clear, cfl_handle_clear},
    {Py_tp_methods, Producer_methods},
    {Py_tp_members, Producer_members},
    {Py_sq_length, Producer_len_guarded},
    {Py_nb_bool, Producer_bool},
    {0, NULL},
};

static PyType_Spec Producer_spec = {
    .name = CFL_QUALNAME("Producer"),
    .basicsize = sizeof(Handle),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = Producer_slots,
};

int cfl_producer_init_type(PyObject *module, cfl_state *st) {
    st->ProducerType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Producer_spec, NULL);
    if (st->ProducerType == NULL)
        return -1;
    return PyModule_AddType(module, st->ProducerType);
}
