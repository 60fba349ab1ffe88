/* Producer.produce_batch(): many messages for one topic in one call.
 *
 * Two forms, told apart by the second argument:
 *  - upstream's: a list of dicts (value, key, partition, headers, timestamp, callback); each one
 *    that cannot be enqueued gets an '_error' KafkaError in its dict.
 *  - columns: a sequence or Arrow array of values, with optional keys, partitions, headers and
 *    timestamps of the same length (sequences or Arrow arrays too). Every argument is checked
 *    before anything is enqueued, so a bad argument enqueues nothing. Messages then go in order
 *    until librdkafka refuses one (a full queue, a message too large): the call returns how many
 *    went, and a batch whose first message is refused raises, as produce() would. */
#include "arrow.h"
#include "error.h"
#include "message.h"
#include "producer.h"

/* ---- the dict form ---------------------------------------------------------------------- */

static PyObject *produce_dicts(Handle *self, PyObject *topic, PyObject *messages, PyObject *partition,
                               PyObject *batch_cb) {
    cfl_state *st = self->st;
    long long unused;
    if (cfl_int_arg(partition, "partition", RD_KAFKA_PARTITION_UA, -1, INT32_MAX, &unused) < 0)
        return NULL;
    Py_ssize_t enqueued = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(messages); i++) {
        PyObject *m = PyList_GET_ITEM(messages, i);
        if (!PyDict_Check(m)) {
            PyErr_Format(PyExc_TypeError, "messages[%zd] must be a dict, not %.100s", i, Py_TYPE(m)->tp_name);
            return NULL;
        }
        Py_INCREF(m);
        PyObject *cb = PyDict_GetItemString(m, "on_delivery");
        if (cb == NULL || cb == Py_None)
            cb = PyDict_GetItemString(m, "callback");
        PyObject *part = PyDict_GetItemString(m, "partition");
        ProduceArgs pa = {.topic = topic,
                          .value = PyDict_GetItemString(m, "value"),
                          .key = PyDict_GetItemString(m, "key"),
                          .partition = part != NULL ? part : partition,
                          .callback = cb != NULL && cb != Py_None ? cb : batch_cb,
                          .timestamp = PyDict_GetItemString(m, "timestamp"),
                          .headers = PyDict_GetItemString(m, "headers")};
        rd_kafka_resp_err_t err;
        if (cfl_produce_one(self, st, &pa, &err) == 0) {
            enqueued++;
            Py_DECREF(m);
            continue;
        }
        /* Record why this one failed and go on with the rest. */
        PyObject *exc = CFL_FETCH_EXC();
        PyObject *text = exc ? PyObject_Str(exc) : NULL;
        PyObject *kerr = NULL;
        if (text != NULL)
            kerr = cfl_error_new(st, err ? err : RD_KAFKA_RESP_ERR__INVALID_ARG, PyUnicode_AsUTF8(text));
        Py_XDECREF(text);
        Py_XDECREF(exc);
        int rc = kerr ? PyDict_SetItemString(m, "_error", kerr) : -1;
        Py_XDECREF(kerr);
        Py_DECREF(m);
        if (rc < 0)
            return NULL;
    }
    return PyLong_FromSsize_t(enqueued);
}

/* ---- the column form -------------------------------------------------------------------- */

/* One argument of the column form: absent, one value for every message (partition), a Python
 * sequence, or an Arrow array. */
typedef struct {
    const char *what;
    PyObject *scalar;
    PyObject *seq; /* from PySequence_Fast */
    CflArrowImport arrow;
    int is_arrow;
} Column;

#define BINARY_KINDS (1u << CFL_ARROW_BINARY | 1u << CFL_ARROW_LARGE_BINARY | 1u << CFL_ARROW_BINARY_VIEW)

/* Open `obj` (NULL/None: absent) as a column of n rows (n < 0: take the length from it). */
static int column_open(Column *c, const char *what, PyObject *obj, unsigned arrow_kinds, int allow_scalar,
                       Py_ssize_t *n) {
    memset(c, 0, sizeof(*c));
    c->what = what;
    if (obj == NULL || obj == Py_None)
        return 0;
    Py_ssize_t len;
    int r = cfl_arrow_import(obj, what, arrow_kinds, &c->arrow);
    if (r < 0)
        return -1;
    if (r > 0) {
        c->is_arrow = 1;
        len = (Py_ssize_t)c->arrow.col.length;
    } else if (allow_scalar && PyLong_Check(obj)) {
        c->scalar = obj;
        return 0;
    } else if (PyUnicode_Check(obj) || PyBytes_Check(obj) || PyByteArray_Check(obj) || PyDict_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence (one item per message) or an Arrow array, not %.100s",
                     what, Py_TYPE(obj)->tp_name);
        return -1;
    } else {
        c->seq = PySequence_Fast(obj, "");
        if (c->seq == NULL) {
            PyErr_Format(PyExc_TypeError, "%s must be a sequence (one item per message) or an Arrow array, not %.100s",
                         what, Py_TYPE(obj)->tp_name);
            return -1;
        }
        len = PySequence_Fast_GET_SIZE(c->seq);
    }
    if (*n < 0) {
        *n = len;
    } else if (len != *n) {
        PyErr_Format(PyExc_ValueError, "%s has %zd items but there are %zd messages", what, len, *n);
        return -1;
    }
    return 0;
}

static void column_close(Column *c) {
    Py_CLEAR(c->seq);
    if (c->is_arrow)
        cfl_arrow_import_release(&c->arrow);
}

static PyObject *item(const Column *c, Py_ssize_t i) { return PySequence_Fast_ITEMS(c->seq)[i]; }

/* Row i of a value/key column as bytes. *view must be released (cfl_bytes_release). */
static int column_bytes(const Column *c, Py_ssize_t i, const void **p, size_t *len, Py_buffer *view, int *have_view) {
    *have_view = 0;
    if (c->is_arrow) {
        if (!cfl_arrow_bytes(&c->arrow.col, i, p, len))
            *p = NULL, *len = 0;
        return 0;
    }
    if (c->seq == NULL) {
        *p = NULL, *len = 0;
        return 0;
    }
    return cfl_bytes_arg(item(c, i), c->what, p, len, view, have_view);
}

/* Row i of an int column (partition, timestamp), dflt when absent or null. */
static int column_int(const Column *c, Py_ssize_t i, long long dflt, long long lo, long long hi, long long *out) {
    if (c->is_arrow) {
        int64_t v;
        *out = cfl_arrow_int(&c->arrow.col, i, &v) ? v : dflt;
        if (*out < lo || *out > hi) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] = %lld is out of range [%lld, %lld]", c->what, i, *out, lo, hi);
            return -1;
        }
        return 0;
    }
    return cfl_int_arg(c->seq ? item(c, i) : c->scalar, c->what, dflt, lo, hi, out);
}

/* Row i's headers (NULL for none), or -1 with an exception. */
static int column_headers(const Column *c, Py_ssize_t i, rd_kafka_headers_t **out) {
    *out = NULL;
    if (!c->is_arrow)
        return c->seq ? cfl_headers_from_py(item(c, i), out) : 0;
    int64_t start, end;
    if (!cfl_arrow_list(&c->arrow.col, i, &start, &end) || end <= start)
        return 0;
    rd_kafka_headers_t *h = rd_kafka_headers_new((size_t)(end - start));
    for (int64_t j = start; j < end; j++) {
        const void *k, *v;
        size_t kl, vl;
        if (!cfl_arrow_bytes(c->arrow.col.entry_key, j, &k, &kl)) {
            rd_kafka_headers_destroy(h);
            PyErr_Format(PyExc_ValueError, "%s[%zd]: a header name is null", c->what, i);
            return -1;
        }
        if (!cfl_arrow_bytes(c->arrow.col.entry_value, j, &v, &vl))
            v = NULL, vl = 0;
        rd_kafka_header_add(h, (const char *)k, (ssize_t)kl, v, (ssize_t)vl);
    }
    *out = h;
    return 0;
}

/* Prefix an argument error (TypeError or ValueError) with the row it is about. */
static void at_row(const char *what, Py_ssize_t i) {
    PyObject *exc = CFL_FETCH_EXC();
    PyObject *type = exc == NULL                                          ? NULL
                     : PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_TypeError) ? PyExc_TypeError
                     : PyObject_TypeCheck(exc, (PyTypeObject *)PyExc_ValueError) ? PyExc_ValueError
                                                                                  : NULL;
    PyObject *text = type ? PyObject_Str(exc) : NULL;
    if (text != NULL) {
        PyErr_Format(type, "%s[%zd]: %U", what, i, text);
        Py_DECREF(text);
        Py_DECREF(exc);
    } else {
        CFL_RESTORE_EXC(exc);
    }
}

typedef struct {
    Column values, keys, partitions, timestamps, headers;
    rd_kafka_headers_t **hdrs; /* converted before anything is enqueued; NULL once handed over */
    MsgRef *shared;            /* with delivery.report.only.error: one ref for every message */
    Py_ssize_t n;
} Batch;

static void batch_close(Batch *b) {
    if (b->shared != NULL && b->shared->shared == 0)
        cfl_msgref_free(b->shared); /* no message took it */
    for (Py_ssize_t i = 0; b->hdrs != NULL && i < b->n; i++)
        if (b->hdrs[i] != NULL)
            rd_kafka_headers_destroy(b->hdrs[i]);
    PyMem_Free(b->hdrs);
    column_close(&b->values);
    column_close(&b->keys);
    column_close(&b->partitions);
    column_close(&b->timestamps);
    column_close(&b->headers);
}

/* Check every row of the Python-sequence columns, and convert the headers, before enqueuing. */
static int batch_check(Batch *b) {
    const Column *bytes_cols[] = {&b->values, &b->keys};
    for (int k = 0; k < 2; k++) {
        const Column *c = bytes_cols[k];
        for (Py_ssize_t i = 0; c->seq != NULL && i < b->n; i++) {
            PyObject *o = item(c, i);
            if (o == Py_None || PyBytes_Check(o) || PyObject_CheckBuffer(o))
                continue;
            if (!PyUnicode_Check(o)) {
                PyErr_Format(PyExc_TypeError, "%s[%zd] must be str, bytes, a buffer or None, not %.100s", c->what, i,
                             Py_TYPE(o)->tp_name);
                return -1;
            }
            if (PyUnicode_AsUTF8AndSize(o, NULL) == NULL) { /* caches the UTF-8 for the enqueue loop */
                at_row(c->what, i);
                return -1;
            }
        }
    }
    long long v;
    for (Py_ssize_t i = 0; b->partitions.seq != NULL && i < b->n; i++)
        if (column_int(&b->partitions, i, RD_KAFKA_PARTITION_UA, -1, INT32_MAX, &v) < 0)
            return at_row("partition", i), -1;
    for (Py_ssize_t i = 0; b->timestamps.seq != NULL && i < b->n; i++)
        if (column_int(&b->timestamps, i, 0, 0, INT64_MAX, &v) < 0)
            return at_row("timestamps", i), -1;
    if (b->headers.seq == NULL && !b->headers.is_arrow)
        return 0;
    b->hdrs = PyMem_Calloc((size_t)(b->n > 0 ? b->n : 1), sizeof(*b->hdrs));
    if (b->hdrs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < b->n; i++)
        if (column_headers(&b->headers, i, &b->hdrs[i]) < 0) {
            if (!b->headers.is_arrow)
                at_row("headers", i);
            return -1;
        }
    return 0;
}

/* The objects a delivery report hands back for row i. */
static MsgRef *row_ref(const Batch *b, Py_ssize_t i, PyObject *topic, PyObject *callback, const void *value,
                       size_t value_len, const void *key, size_t key_len) {
    MsgRef *ref = PyMem_Calloc(1, sizeof(*ref));
    if (ref == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    ref->callback = Py_NewRef(callback);
    ref->topic = Py_NewRef(topic);
    if (b->headers.seq != NULL && item(&b->headers, i) != Py_None)
        ref->headers = Py_NewRef(item(&b->headers, i));
    if (b->values.seq != NULL && PyBytes_CheckExact(item(&b->values, i)))
        ref->value = Py_NewRef(item(&b->values, i)); /* the very object, as produce() does */
    else if (value != NULL && (ref->value = PyBytes_FromStringAndSize(value, (Py_ssize_t)value_len)) == NULL)
        goto fail;
    if (key != NULL && (ref->key = PyBytes_FromStringAndSize(key, (Py_ssize_t)key_len)) == NULL)
        goto fail;
    return ref;
fail:
    cfl_msgref_free(ref);
    return NULL;
}

/* Enqueue row i. 0, or -1 with an exception set. */
static int enqueue_row(Handle *h, Batch *b, Py_ssize_t i, PyObject *topic, rd_kafka_topic_t *rkt,
                       PyObject *callback) {
    long long partition, timestamp;
    if (column_int(&b->partitions, i, RD_KAFKA_PARTITION_UA, -1, INT32_MAX, &partition) < 0 ||
        column_int(&b->timestamps, i, 0, 0, INT64_MAX, &timestamp) < 0)
        return -1;
    const void *value, *key;
    size_t value_len, key_len;
    Py_buffer vview, kview;
    int have_vview, have_kview = 0, rc = -1, msgflags = RD_KAFKA_MSG_F_COPY;
    MsgRef *ref = NULL;
    if (column_bytes(&b->values, i, &value, &value_len, &vview, &have_vview) < 0 ||
        column_bytes(&b->keys, i, &key, &key_len, &kview, &have_kview) < 0)
        goto done;
    if (b->shared != NULL) {
        ref = b->shared; /* librdkafka copies the bytes; a failed report copies them back */
    } else if (callback != NULL) {
        if ((ref = row_ref(b, i, topic, callback, value, value_len, key, key_len)) == NULL)
            goto done;
        if (ref->value != NULL) { /* the report's bytes travel without a copy */
            value = PyBytes_AS_STRING(ref->value);
            msgflags = 0;
        }
    }
    rd_kafka_headers_t *hdrs = b->hdrs ? b->hdrs[i] : NULL;
    rd_kafka_resp_err_t err;
    rc = cfl_produce_enqueue(h, h->st, rkt, (int32_t)partition, msgflags, value, value_len, key, key_len,
                             timestamp, hdrs, ref, &err);
    if (b->hdrs)
        b->hdrs[i] = NULL; /* librdkafka's on success, destroyed on failure */
    if (b->shared != NULL && ref == b->shared) {
        ref->shared += rc == 0;
        ref = NULL;
    } else if (rc == 0) {
        ref = NULL;
    }
done:
    cfl_bytes_release(&vview, have_vview);
    cfl_bytes_release(&kview, have_kview);
    if (ref != NULL)
        cfl_msgref_free(ref);
    return rc;
}

static PyObject *produce_columns(Handle *self, PyObject *topic, PyObject *values, PyObject *partition,
                                 PyObject *callback, PyObject *keys, PyObject *headers, PyObject *timestamps) {
    Batch b = {.n = -1};
    PyObject *result = NULL;
    unsigned ints = 1u << CFL_ARROW_INT;
    if (column_open(&b.values, "values", values, BINARY_KINDS, 0, &b.n) < 0 ||
        column_open(&b.keys, "keys", keys, BINARY_KINDS, 0, &b.n) < 0 ||
        column_open(&b.partitions, "partition", partition, ints, 1, &b.n) < 0 ||
        column_open(&b.timestamps, "timestamps", timestamps, ints, 0, &b.n) < 0 ||
        column_open(&b.headers, "headers", headers, 1u << CFL_ARROW_LIST, 0, &b.n) < 0)
        goto done;
    long long unused;
    if (b.partitions.scalar && cfl_int_arg(b.partitions.scalar, "partition", 0, -1, INT32_MAX, &unused) < 0)
        goto done;
    if (batch_check(&b) < 0)
        goto done;
    rd_kafka_topic_t *rkt = cfl_producer_topic(self, self->st, topic);
    if (rkt == NULL)
        goto done;
    callback = callback != NULL ? callback : self->on_delivery;
    if (callback != NULL && self->dr_only_error) {
        /* Successful reports are not wanted: no per-message objects at all. */
        if ((b.shared = PyMem_Calloc(1, sizeof(*b.shared))) == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        b.shared->callback = Py_NewRef(callback);
        b.shared->topic = Py_NewRef(topic);
    }
    Py_ssize_t i = 0;
    for (; i < b.n; i++)
        if (enqueue_row(self, &b, i, topic, rkt, callback) < 0)
            break;
    if (i == b.n || i > 0) {
        PyErr_Clear(); /* the count tells where the batch stopped; the next call raises */
        result = PyLong_FromSsize_t(i);
    }
done:
    batch_close(&b);
    return result;
}

/* ---- entry point ------------------------------------------------------------------------ */

static const enum cfl_kw batch_params[] = {CFL_KW_topic, CFL_KW_messages, CFL_KW_partition, CFL_KW_on_delivery,
                                           CFL_KW_callback, CFL_KW_keys, CFL_KW_headers, CFL_KW_timestamps,
                                           CFL_KW_values};
#define BATCH_POSITIONAL 5 /* topic .. callback; the column keywords only by name */

PyObject *cfl_producer_produce_batch(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *a[9];
    if (nargs > BATCH_POSITIONAL) {
        PyErr_Format(PyExc_TypeError, "produce_batch() takes at most %d positional arguments (%zd given)",
                     BATCH_POSITIONAL, nargs);
        return NULL;
    }
    if (cfl_parse_args(self->st, "produce_batch", args, nargs, kwnames, batch_params, 9, 1, a) < 0 ||
        cfl_handle_check(self) < 0)
        return NULL;
    PyObject *topic = a[0], *messages = a[1] != NULL ? a[1] : a[8];
    if ((a[1] == NULL) == (a[8] == NULL)) {
        PyErr_SetString(PyExc_TypeError, "produce_batch() takes messages (or values), exactly one of them");
        return NULL;
    }
    if (messages == Py_None) {
        PyErr_SetString(PyExc_TypeError, "produce_batch() needs messages: a list of dicts, a sequence of values "
                                         "or an Arrow array, not None");
        return NULL;
    }
    if (!PyUnicode_Check(topic)) {
        PyErr_Format(PyExc_TypeError, "topic must be str, not %.100s", Py_TYPE(topic)->tp_name);
        return NULL;
    }
    int have_od = a[3] != NULL && a[3] != Py_None, have_cb = a[4] != NULL && a[4] != Py_None;
    if (have_od && have_cb) {
        PyErr_SetString(PyExc_TypeError, "produce_batch() takes on_delivery or callback, not both");
        return NULL;
    }
    PyObject *callback = have_od ? a[3] : have_cb ? a[4] : NULL;
    if (callback != NULL && !PyCallable_Check(callback)) {
        PyErr_Format(PyExc_TypeError, "on_delivery must be callable, not %.100s", Py_TYPE(callback)->tp_name);
        return NULL;
    }
    int columns = a[5] != NULL || a[6] != NULL || a[7] != NULL;
    if (PyList_Check(messages) && PyList_GET_SIZE(messages) > 0 && PyDict_Check(PyList_GET_ITEM(messages, 0))) {
        if (columns) {
            PyErr_SetString(PyExc_TypeError,
                            "keys, headers and timestamps go with a sequence of values, not with message dicts");
            return NULL;
        }
        return produce_dicts(self, topic, messages, a[2], callback);
    }
    return produce_columns(self, topic, messages, a[2], callback, a[5], a[6], a[7]);
}
