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

/* One message dict, checked and converted before anything is enqueued (as upstream: a bad dict
 * raises and enqueues nothing). Beyond upstream, which reads only value, key and callback, its
 * partition, timestamp and headers are sent, and 'on_delivery' is an alias of 'callback'. */
typedef struct {
    PyObject *dict;           /* the message dict ('_error' goes there) */
    PyObject *value, *key;    /* bytes or str, or NULL */
    PyObject *callback;       /* NULL: the batch's */
    PyObject *headers;        /* the headers as a list of (str, bytes|None), for the report, or NULL */
    rd_kafka_headers_t *hdrs; /* the same for librdkafka, or NULL; librdkafka's once handed over */
    long long partition;      /* RD_KAFKA_PARTITION_UA: the batch's (or the partitioner's) */
    long long timestamp;
    int bad_partition; /* beyond 32 bits: refused as an unknown partition */
} DictRow;

static void dict_rows_free(DictRow *rows, Py_ssize_t n) {
    for (Py_ssize_t i = 0; rows != NULL && i < n; i++) {
        Py_XDECREF(rows[i].dict);
        Py_XDECREF(rows[i].value);
        Py_XDECREF(rows[i].key);
        Py_XDECREF(rows[i].callback);
        Py_XDECREF(rows[i].headers);
        if (rows[i].hdrs != NULL)
            rd_kafka_headers_destroy(rows[i].hdrs);
    }
    PyMem_Free(rows);
}

/* d[name], a new reference; NULL (no exception) when absent or None. (The dict is the caller's,
 * which another thread may change: no borrowed reference.) */
static PyObject *dict_get(PyObject *d, const char *name) {
    PyObject *v = cfl_dict_get_string(d, name);
    if (v == Py_None)
        Py_CLEAR(v);
    return v;
}

/* A dict's value or key: bytes or str (checked to encode), or absent. */
static int payload_field(PyObject *d, const char *name, Py_ssize_t i, PyObject **out) {
    PyObject *v = *out = dict_get(d, name);
    if (v == NULL || PyBytes_Check(v))
        return 0;
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "Message %s at index %zd must be bytes or str", name, i);
        return -1;
    }
    return PyUnicode_AsUTF8AndSize(v, NULL) == NULL ? -1 : 0;
}

/* Headers of a dict: a list of (name, value) tuples or a dict, values None, bytes or str; a name
 * that is not a str is sent as str(name). Builds the C headers and the report's list of
 * (str, bytes|None); -1 with an exception for anything else. */
static int dict_headers(PyObject *h, rd_kafka_headers_t **out, PyObject **list) {
    PyObject *items = PyDict_Check(h) ? PyDict_Items(h) : PyList_Check(h) ? PySequence_List(h) : NULL;
    if (items == NULL)
        return -1;
    Py_ssize_t n = PyList_GET_SIZE(items);
    rd_kafka_headers_t *hdrs = rd_kafka_headers_new((size_t)(n > 0 ? n : 1));
    PyObject *norm = PyList_New(n);
    int rc = norm != NULL ? 0 : -1;
    for (Py_ssize_t j = 0; rc == 0 && j < n; j++) {
        PyObject *pair = PyList_GET_ITEM(items, j), *name, *v, *value;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
            (name = PyObject_Str(PyTuple_GET_ITEM(pair, 0))) == NULL) {
            rc = -1;
            break;
        }
        v = PyTuple_GET_ITEM(pair, 1);
        value = v == Py_None || PyBytes_CheckExact(v) ? Py_NewRef(v)
                : PyBytes_Check(v)   ? PyBytes_FromStringAndSize(PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v))
                : PyUnicode_Check(v) ? PyUnicode_AsUTF8String(v)
                                     : NULL;
        Py_ssize_t name_len;
        const char *name_s = value != NULL ? PyUnicode_AsUTF8AndSize(name, &name_len) : NULL;
        PyObject *entry = name_s != NULL ? PyTuple_Pack(2, name, value) : NULL;
        if (entry == NULL ||
            rd_kafka_header_add(hdrs, name_s, name_len, value == Py_None ? NULL : PyBytes_AS_STRING(value),
                                value == Py_None ? 0 : PyBytes_GET_SIZE(value)) != RD_KAFKA_RESP_ERR_NO_ERROR)
            rc = -1;
        else
            PyList_SET_ITEM(norm, j, Py_NewRef(entry));
        Py_XDECREF(entry);
        Py_XDECREF(value);
        Py_DECREF(name);
    }
    Py_DECREF(items);
    if (rc < 0) {
        Py_XDECREF(norm);
        rd_kafka_headers_destroy(hdrs);
        return -1;
    }
    *out = hdrs;
    *list = norm;
    return 0;
}

/* Check and convert message dict i into row. */
static int dict_row(PyObject *d, Py_ssize_t i, long long batch_partition, DictRow *row) {
    if (!PyDict_Check(d)) {
        PyErr_Format(PyExc_TypeError, "Message at index %zd must be a dict", i);
        return -1;
    }
    row->dict = Py_NewRef(d);
    if (payload_field(d, "value", i, &row->value) < 0 || payload_field(d, "key", i, &row->key) < 0)
        return -1;
    row->partition = batch_partition;
    PyObject *part = dict_get(d, "partition");
    if (part != NULL) {
        if (!PyLong_Check(part)) {
            PyErr_Format(PyExc_TypeError, "Message partition at index %zd must be int", i);
            Py_DECREF(part);
            return -1;
        }
        int overflow;
        row->partition = PyLong_AsLongLongAndOverflow(part, &overflow);
        row->bad_partition = overflow || row->partition < INT32_MIN || row->partition > INT32_MAX;
        Py_DECREF(part);
    }
    PyObject *ts = dict_get(d, "timestamp");
    if (ts != NULL) {
        if (!PyLong_Check(ts)) {
            PyErr_Format(PyExc_TypeError, "Message timestamp at index %zd must be int", i);
            Py_DECREF(ts);
            return -1;
        }
        int overflow;
        row->timestamp = PyLong_AsLongLongAndOverflow(ts, &overflow);
        Py_DECREF(ts);
        if (overflow || row->timestamp < 0) {
            PyErr_Format(PyExc_ValueError, "Message timestamp at index %zd must be milliseconds >= 0", i);
            return -1;
        }
    }
    PyObject *h = dict_get(d, "headers");
    int bad_headers = h != NULL && dict_headers(h, &row->hdrs, &row->headers) < 0;
    Py_XDECREF(h);
    if (bad_headers) {
        PyErr_Clear(); /* upstream's text, whatever was wrong */
        PyErr_Format(PyExc_ValueError, "Invalid headers at index %zd", i);
        return -1;
    }
    if ((row->callback = dict_get(d, "callback")) == NULL)
        row->callback = dict_get(d, "on_delivery");
    if (row->callback != NULL && !PyCallable_Check(row->callback)) {
        PyErr_Format(PyExc_TypeError, "Message callback at index %zd must be callable, not %.100s", i,
                     Py_TYPE(row->callback)->tp_name);
        return -1;
    }
    return 0;
}

/* Enqueue one checked row. 1 enqueued; 0 refused by librdkafka (recorded as the dict's '_error',
 * upstream's "Message failed: ..." text); -1 with an exception. */
static int enqueue_dict_row(Handle *self, rd_kafka_topic_t *rkt, PyObject *topic, DictRow *row,
                            PyObject *batch_cb) {
    cfl_state *st = self->st;
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION;
    PyObject *callback = row->callback != NULL ? row->callback : batch_cb;
    if (!row->bad_partition) {
        MsgRef *ref = NULL;
        const void *value = NULL, *key = NULL;
        size_t value_len = 0, key_len = 0;
        int msgflags = RD_KAFKA_MSG_F_COPY;
        PyObject *vbytes = row->value && PyUnicode_Check(row->value) ? PyUnicode_AsUTF8String(row->value)
                                                                      : Py_XNewRef(row->value);
        PyObject *kbytes = row->key && PyUnicode_Check(row->key) ? PyUnicode_AsUTF8String(row->key)
                                                                  : Py_XNewRef(row->key);
        if ((row->value != NULL && vbytes == NULL) || (row->key != NULL && kbytes == NULL) ||
            (callback != NULL && (ref = cfl_msgref_new()) == NULL)) {
            Py_XDECREF(vbytes);
            Py_XDECREF(kbytes);
            return -1;
        }
        if (vbytes != NULL) {
            value = PyBytes_AS_STRING(vbytes);
            value_len = (size_t)PyBytes_GET_SIZE(vbytes);
        }
        if (kbytes != NULL) {
            key = PyBytes_AS_STRING(kbytes);
            key_len = (size_t)PyBytes_GET_SIZE(kbytes);
        }
        if (ref != NULL) {
            /* The report hands these back; the value travels without a copy. */
            ref->callback = Py_NewRef(callback);
            ref->topic = Py_NewRef(topic);
            ref->value = Py_XNewRef(vbytes);
            ref->key = Py_XNewRef(kbytes);
            ref->headers = Py_XNewRef(row->headers);
            msgflags = vbytes != NULL ? 0 : RD_KAFKA_MSG_F_COPY;
        }
        rd_kafka_headers_t *hdrs = row->hdrs;
        row->hdrs = NULL; /* librdkafka's on success, destroyed on failure */
        int rc = cfl_produce_enqueue(self, st, rkt, (int32_t)row->partition, msgflags, value, value_len, key,
                                     key_len, row->timestamp, hdrs, ref, &err);
        Py_XDECREF(vbytes);
        Py_XDECREF(kbytes);
        if (rc == 0)
            return 1;
        if (ref != NULL)
            cfl_msgref_free(ref);
        if (err == RD_KAFKA_RESP_ERR_NO_ERROR)
            return -1;
        PyErr_Clear(); /* recorded in the dict instead */
    }
    char text[256];
    snprintf(text, sizeof(text), "Message failed: %s", rd_kafka_err2str(err));
    PyObject *kerr = cfl_error_new(st, err, text);
    int rc = kerr != NULL ? PyDict_SetItemString(row->dict, "_error", kerr) : -1;
    Py_XDECREF(kerr);
    return rc < 0 ? -1 : 0;
}

static PyObject *produce_dicts(Handle *self, PyObject *topic, PyObject *messages, PyObject *partition,
                               PyObject *batch_cb) {
    int batch_partition = RD_KAFKA_PARTITION_UA;
    if (partition != NULL && partition != Py_None && !PyArg_Parse(partition, "i", &batch_partition))
        return NULL;
    /* The list may change under a header name's __str__: go by what it holds now. */
    PyObject *items = PySequence_List(messages), *result = NULL;
    if (items == NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items);
    DictRow *rows = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(*rows));
    if (rows == NULL) {
        Py_DECREF(items);
        return PyErr_NoMemory();
    }
    if (batch_cb == NULL)
        batch_cb = self->on_delivery;
    for (Py_ssize_t i = 0; i < n; i++)
        if (dict_row(PyList_GET_ITEM(items, i), i, batch_partition, &rows[i]) < 0)
            goto done;
    rd_kafka_topic_t *rkt = cfl_producer_topic(self, self->st, topic);
    if (rkt == NULL)
        goto done;
    Py_ssize_t enqueued = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = enqueue_dict_row(self, rkt, topic, &rows[i], batch_cb);
        if (r < 0)
            goto done;
        enqueued += r;
    }
    result = PyLong_FromSsize_t(enqueued);
done:
    Py_DECREF(items);
    dict_rows_free(rows, n);
    return result;
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

/* The values column given as `messages` (upstream's only form) keeps upstream's texts at the
 * start of its own, so code matching those still matches. */
static int is_messages(const char *what) { return strcmp(what, "messages") == 0; }

static void not_a_column(const char *what, PyObject *obj) {
    if (is_messages(what))
        PyErr_Format(PyExc_TypeError,
                     "messages must be a list (of message dicts, or a sequence or Arrow array of values), not %.100s",
                     Py_TYPE(obj)->tp_name);
    else
        PyErr_Format(PyExc_TypeError, "%s must be a sequence (one item per message) or an Arrow array, not %.100s",
                     what, Py_TYPE(obj)->tp_name);
}

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
        not_a_column(what, obj);
        return -1;
    } else {
        c->seq = cfl_sequence_fast(obj, ""); /* a list another thread may resize: its items now */
        if (c->seq == NULL) {
            not_a_column(what, obj);
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
    /* The batch's own hold: the last one frees the ref (no message took it, or every report of
     * those that did has been served, maybe by another thread). */
    if (b->shared != NULL && CFL_ADD_SSIZE(&b->shared->shared, -1) == 1)
        cfl_msgref_free(b->shared);
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
                if (is_messages(c->what))
                    PyErr_Format(PyExc_TypeError,
                                 "Message at index %zd must be a dict (or, in a sequence of values, str, bytes, a "
                                 "buffer or None), not %.100s", i, Py_TYPE(o)->tp_name);
                else
                    PyErr_Format(PyExc_TypeError, "%s[%zd] must be str, bytes, a buffer or None, not %.100s", c->what,
                                 i, Py_TYPE(o)->tp_name);
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
    MsgRef *ref = cfl_msgref_new();
    if (ref == NULL)
        return NULL;
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
        CFL_ADD_SSIZE(&ref->shared, 1); /* before librdkafka may report the message */
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
        if (rc != 0)
            CFL_ADD_SSIZE(&ref->shared, -1); /* not taken: no report will release it */
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

/* `values_name`: the argument the values came as, "messages" or "values" (for the texts). */
static PyObject *produce_columns(Handle *self, PyObject *topic, const char *values_name, PyObject *values,
                                 PyObject *partition, PyObject *callback, PyObject *keys, PyObject *headers,
                                 PyObject *timestamps) {
    Batch b = {.n = -1};
    PyObject *result = NULL;
    unsigned ints = 1u << CFL_ARROW_INT;
    if (column_open(&b.values, values_name, values, BINARY_KINDS, 0, &b.n) < 0 ||
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
        /* The batch holds it too, until batch_close(): a thread serving the reports of the
         * rows already sent must not free it while later rows still take it. */
        b.shared->shared = 1;
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

static const enum cfl_kw batch_params[] = {CFL_KW_topic, CFL_KW_messages, CFL_KW_partition, CFL_KW_callback,
                                           CFL_KW_on_delivery, CFL_KW_keys, CFL_KW_headers, CFL_KW_timestamps,
                                           CFL_KW_values};
#define BATCH_POSITIONAL 5 /* topic .. on_delivery, in upstream's order; the column keywords only by name */

/* The argument errors read as upstream's (CPython's argument parser's texts). */
PyObject *cfl_producer_produce_batch(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *a[9];
    if (nargs > BATCH_POSITIONAL) {
        PyErr_Format(PyExc_TypeError, "function takes at most %d arguments (%zd given)", BATCH_POSITIONAL,
                     nargs + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0));
        return NULL;
    }
    if (cfl_parse_args(self->st, "produce_batch", args, nargs, kwnames, batch_params, 9, 0, a) < 0)
        return NULL;
    if (a[0] == NULL || (a[1] == NULL && a[8] == NULL)) {
        PyErr_Format(PyExc_TypeError, "function missing required argument '%s' (pos %d)",
                     a[0] == NULL ? "topic" : "messages", a[0] == NULL ? 1 : 2);
        return NULL;
    }
    if (cfl_handle_check(self) < 0)
        return NULL;
    PyObject *topic = a[0], *messages = a[1] != NULL ? a[1] : a[8];
    if (a[1] != NULL && a[8] != NULL) {
        PyErr_SetString(PyExc_TypeError, "produce_batch() takes messages (or values), not both");
        return NULL;
    }
    if (!PyUnicode_Check(topic)) {
        PyErr_Format(PyExc_TypeError, "argument 1 must be str, not %.50s",
                     topic == Py_None ? "None" : Py_TYPE(topic)->tp_name);
        return NULL;
    }
    if (messages == Py_None) {
        PyErr_SetString(PyExc_TypeError, a[1] != NULL ? "messages must be a list"
                                                       : "values must be a sequence or an Arrow array, not None");
        return NULL;
    }
    /* As upstream, callback wins when both are given. */
    PyObject *callback = a[3] != NULL && a[3] != Py_None ? a[3] : a[4] != NULL && a[4] != Py_None ? a[4] : NULL;
    if (callback != NULL && !PyCallable_Check(callback)) {
        PyErr_Format(PyExc_TypeError, "on_delivery must be callable, not %.100s", Py_TYPE(callback)->tp_name);
        return NULL;
    }
    int columns = a[5] != NULL || a[6] != NULL || a[7] != NULL;
    int dicts = 0;
    if (PyList_Check(messages) && PyList_GET_SIZE(messages) > 0) {
        PyObject *first = cfl_list_get_ref(messages, 0); /* the caller's list: no borrowed item */
        if (first == NULL)
            PyErr_Clear(); /* emptied meanwhile by another thread: not the dicts form */
        dicts = first != NULL && PyDict_Check(first);
        Py_XDECREF(first);
    }
    if (dicts) {
        if (columns) {
            PyErr_SetString(PyExc_TypeError,
                            "keys, headers and timestamps go with a sequence of values, not with message dicts");
            return NULL;
        }
        return produce_dicts(self, topic, messages, a[2], callback);
    }
    if (PyTuple_Check(messages) && PyTuple_GET_SIZE(messages) > 0 && PyDict_Check(PyTuple_GET_ITEM(messages, 0))) {
        PyErr_SetString(PyExc_TypeError, "messages must be a list");
        return NULL;
    }
    return produce_columns(self, topic, a[1] != NULL ? "messages" : "values", messages, a[2], callback, a[5], a[6],
                           a[7]);
}
