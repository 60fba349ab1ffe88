/* Message and header conversions. */
#include "message.h"

#include "error.h"
#include "slot_field.h"

/* ---- headers ---------------------------------------------------------------------------- */

static int header_name(PyObject *name, Py_ssize_t idx, const char **out) {
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "header #%zd: name must be str, not %.100s", idx,
                     Py_TYPE(name)->tp_name);
        return -1;
    }
    *out = PyUnicode_AsUTF8(name);
    return *out == NULL ? -1 : 0;
}

static int add_header(rd_kafka_headers_t *hdrs, PyObject *name, PyObject *value, Py_ssize_t idx) {
    const char *n;
    const void *data;
    size_t len;
    Py_buffer view;
    int have_view = 0;
    if (header_name(name, idx, &n) < 0)
        return -1;
    if (cfl_bytes_arg(value, "header value", &data, &len, &view, &have_view) < 0)
        return -1;
    rd_kafka_resp_err_t err = rd_kafka_header_add(hdrs, n, -1, data, data ? (ssize_t)len : 0);
    cfl_bytes_release(&view, have_view);
    if (err) {
        PyErr_Format(PyExc_ValueError, "header #%zd: %s", idx, rd_kafka_err2str(err));
        return -1;
    }
    return 0;
}

/* Calls fn(name, value, index) for every header of a dict or a sequence of pairs. */
static int each_header(PyObject *obj, int (*fn)(void *, PyObject *, PyObject *, Py_ssize_t),
                       void *ctx) {
    if (PyDict_Check(obj)) {
#ifdef Py_GIL_DISABLED
        /* Another thread may change the dict while fn runs: walk a snapshot of its items (pairs,
         * which the sequence walk below takes as they are). */
        PyObject *items = PyDict_Items(obj);
        if (items == NULL)
            return -1;
        int rc = each_header(items, fn, ctx);
        Py_DECREF(items);
        return rc;
#else
        PyObject *k, *v;
        Py_ssize_t pos = 0, idx = 0;
        while (PyDict_Next(obj, &pos, &k, &v))
            if (fn(ctx, k, v, idx++) < 0)
                return -1;
        return 0;
#endif
    }
    if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "headers must be a list of (str, value) tuples or a dict, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *seq = cfl_seq_snapshot(obj); /* a list another thread may resize: its items now */
    if (seq == NULL)
        return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
            PyErr_Format(PyExc_TypeError, "header #%zd must be a (name, value) tuple, not %.100s",
                         i, Py_TYPE(item)->tp_name);
            rc = -1;
            break;
        }
        Py_INCREF(item);
        rc = fn(ctx, PyTuple_GET_ITEM(item, 0), PyTuple_GET_ITEM(item, 1), i);
        Py_DECREF(item);
    }
    Py_DECREF(seq);
    return rc;
}

static int add_header_cb(void *ctx, PyObject *name, PyObject *value, Py_ssize_t idx) {
    return add_header((rd_kafka_headers_t *)ctx, name, value, idx);
}

int cfl_headers_from_py(PyObject *obj, rd_kafka_headers_t **out) {
    *out = NULL;
    if (obj == NULL || obj == Py_None)
        return 0;
    Py_ssize_t n = PyDict_Check(obj) ? PyDict_GET_SIZE(obj)
                   : (PyList_Check(obj) || PyTuple_Check(obj)) ? Py_SIZE(obj) : 0;
    rd_kafka_headers_t *hdrs = rd_kafka_headers_new((size_t)(n > 0 ? n : 1));
    if (each_header(obj, add_header_cb, hdrs) < 0) {
        rd_kafka_headers_destroy(hdrs);
        return -1;
    }
    *out = hdrs;
    return 0;
}

static int normalize_header_cb(void *ctx, PyObject *name, PyObject *value, Py_ssize_t idx) {
    const char *n;
    if (header_name(name, idx, &n) < 0)
        return -1;
    PyObject *v;
    if (value == Py_None) {
        v = Py_NewRef(Py_None);
    } else if (PyBytes_CheckExact(value)) {
        v = Py_NewRef(value);
    } else if (PyUnicode_Check(value)) {
        v = PyUnicode_AsUTF8String(value);
    } else {
        v = PyBytes_FromObject(value);
    }
    if (v == NULL)
        return -1;
    PyObject *pair = PyTuple_Pack(2, name, v);
    Py_DECREF(v);
    if (pair == NULL)
        return -1;
    int rc = PyList_Append((PyObject *)ctx, pair);
    Py_DECREF(pair);
    return rc;
}

PyObject *cfl_headers_normalize(PyObject *obj) {
    PyObject *list = PyList_New(0);
    if (list != NULL && each_header(obj, normalize_header_cb, list) < 0)
        Py_CLEAR(list);
    return list;
}

static PyObject *headers_from_c(const rd_kafka_headers_t *hdrs) {
    size_t cnt = rd_kafka_header_cnt(hdrs);
    PyObject *list = PyList_New((Py_ssize_t)cnt);
    if (list == NULL)
        return NULL;
    for (size_t i = 0; i < cnt; i++) {
        const char *name;
        const void *val;
        size_t size;
        if (rd_kafka_header_get_all(hdrs, i, &name, &val, &size) != RD_KAFKA_RESP_ERR_NO_ERROR) {
            Py_DECREF(list);
            PyErr_SetString(PyExc_RuntimeError, "header vanished while reading");
            return NULL;
        }
        PyObject *pair = Py_BuildValue("(sy#)", name, (const char *)val, (Py_ssize_t)(val ? size : 0));
        if (pair != NULL && val == NULL) {
            /* A null header value stays None rather than b"". */
            Py_SETREF(pair, Py_BuildValue("(sO)", name, Py_None));
        }
        if (pair == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, pair);
    }
    return list;
}

/* ---- Message ---------------------------------------------------------------------------- */

MessageObject *cfl_message_alloc(cfl_state *st) {
    MessageObject *m = (MessageObject *)st->MessageType->tp_alloc(st->MessageType, 0);
    if (m == NULL)
        return NULL;
    CFL_TSAN_FRESH(m);
    m->partition = RD_KAFKA_PARTITION_UA;
    m->offset = RD_KAFKA_OFFSET_INVALID;
    m->latency_us = -1;
    m->leader_epoch = -1;
    m->delivery_count = -1;
    m->tstype = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    return m;
}

/* librdkafka parses a fetched record's header block again on every lookup when it holds no header
 * (nothing is cached then), allocating a buffer each time: that was half of consume()'s
 * instructions per 100 B record. A record of message format v2, the only format with headers, is
 * laid out `... value length (zigzag varint) | value | header count (varint) | headers`, and
 * librdkafka's payload points into that very buffer. So when the bytes just before the payload
 * are exactly the shortest varint of its length, the byte after the value is the header count,
 * and 0 there means no header. Formats v0/v1 put a 4-byte big-endian length before the value,
 * which can never read as that varint for a length in (0, 2^31): its leading byte would need the
 * high bit. Those, a NULL or empty value, an unusual length encoding or a librdkafka that copied
 * the value elsewhere all take librdkafka's own lookup. */
int cfl_record_headerless(const rd_kafka_message_t *rkm) {
    if (rkm->err != RD_KAFKA_RESP_ERR_NO_ERROR || rkm->payload == NULL || rkm->len == 0 ||
        rkm->len > INT32_MAX)
        return 0;
    const unsigned char *value = rkm->payload;
    uint64_t zigzag = (uint64_t)rkm->len << 1;
    int size = 1;
    for (uint64_t rest = zigzag >> 7; rest != 0; rest >>= 7)
        size++;
    const unsigned char *p = value - size;
    for (int i = 0; i < size; i++) {
        unsigned char want = (unsigned char)(((zigzag >> (7 * i)) & 0x7f) | (i < size - 1 ? 0x80 : 0));
        if (p[i] != want)
            return 0;
    }
    return value[rkm->len] == 0;
}

/* The fields a record carries, from rkm: value, key, headers (detached from rkm, except from
 * an error's record or where peek_headers finds there are none), partition, offset, timestamp
 * and leader epoch. 0, or -1 with an exception set. */
static int fill_fields(MessageObject *m, rd_kafka_message_t *rkm, int peek_headers) {
    if (rkm->payload != NULL &&
        (m->value = PyBytes_FromStringAndSize(rkm->payload, (Py_ssize_t)rkm->len)) == NULL)
        return -1;
    if (rkm->key != NULL && (m->key = PyBytes_FromStringAndSize(rkm->key, (Py_ssize_t)rkm->key_len)) == NULL)
        return -1;
    if (rkm->err == RD_KAFKA_RESP_ERR_NO_ERROR && !(peek_headers && cfl_record_headerless(rkm)))
        rd_kafka_message_detach_headers(rkm, &m->c_headers);
    m->partition = rkm->partition;
    m->offset = rkm->offset;
    rd_kafka_timestamp_type_t tstype;
    m->timestamp = rd_kafka_message_timestamp(rkm, &tstype);
    m->tstype = (int)tstype;
    if (tstype == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE)
        m->timestamp = 0;
    m->leader_epoch = rd_kafka_message_leader_epoch(rkm);
    return 0;
}

PyObject *cfl_message_from_rkm(cfl_state *st, rd_kafka_message_t *rkm, PyObject *topic, int peek_headers) {
    MessageObject *m = cfl_message_alloc(st);
    if (m == NULL)
        return NULL;
    if (topic != NULL)
        m->topic = Py_NewRef(topic);
    else if (rkm->rkt != NULL && (m->topic = PyUnicode_FromString(rd_kafka_topic_name(rkm->rkt))) == NULL)
        goto fail;
    if (rkm->err != RD_KAFKA_RESP_ERR_NO_ERROR &&
        (m->error = cfl_error_new(st, rkm->err, rd_kafka_message_errstr(rkm))) == NULL)
        goto fail;
    if (fill_fields(m, rkm, peek_headers) < 0)
        goto fail;
    /* It holds only str, bytes and our KafkaError, which cannot lead back to it: leave it out of
     * the garbage collector's generations, whose collections otherwise grow with every batch of
     * consumed messages. It is tracked again as soon as it may hold anything else (track()). */
    PyObject_GC_UnTrack(m);
    return (PyObject *)m;
fail:
    Py_DECREF(m);
    return NULL;
}

static inline PyObject *none_as_null(PyObject *o) {
    return (o == NULL || o == Py_None) ? NULL : Py_NewRef(o);
}

static inline PyObject *or_none(PyObject *o) {
    return Py_NewRef(o != NULL ? o : Py_None);
}

/* A message that may now reach other containers is watched by the garbage collector again. */
static void track(MessageObject *self) {
    if (!PyObject_GC_IsTracked((PyObject *)self))
        PyObject_GC_Track(self);
}

/* The constructor's timestamp: None, or a (type, milliseconds) tuple of ints. The type is kept as
 * given (a C int), like the value. */
static int timestamp_arg(PyObject *ts, int *tstype, long long *value) {
    *tstype = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    *value = 0;
    if (ts == NULL || ts == Py_None)
        return 0;
    static const char msg[] = "timestamp must be a tuple of (int, int)";
    if (!PyTuple_Check(ts) || PyTuple_GET_SIZE(ts) != 2) {
        PyErr_SetString(PyExc_TypeError, msg);
        return -1;
    }
    long type = PyLong_AsLong(PyTuple_GET_ITEM(ts, 0));
    if (!(type == -1 && PyErr_Occurred()))
        *value = PyLong_AsLongLong(PyTuple_GET_ITEM(ts, 1));
    if (PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, msg);
        }
        return -1;
    }
    *tstype = (int)type;
    return 0;
}

/* Seconds as whole microseconds (truncated); -1 (none) for a negative latency. As in upstream
 * (where the conversion is x86's), NaN and values beyond 64 bits become INT64_MIN: latency()
 * returns that, a pickle says -1.0. */
static int64_t latency_us_of(double seconds) {
    if (seconds < 0)
        return -1;
    double us = seconds * 1e6;
    return us == us && us < 9223372036854775808.0 ? (int64_t)us : INT64_MIN;
}

static PyObject *Message_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    /* Every field zero until __init__ runs (arguments are __init__'s). */
    PyObject *m = type->tp_alloc(type, 0);
    if (m != NULL)
        CFL_TSAN_FRESH(m);
    return m;
}

static int Message_init(MessageObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"topic", "partition", "offset", "key", "value", "headers", "error",
                             "timestamp", "latency", "leader_epoch", "delivery_count", NULL};
    PyObject *topic = NULL, *key = NULL, *value = NULL, *headers = NULL, *error = NULL, *timestamp = NULL;
    int partition = RD_KAFKA_PARTITION_UA, epoch = -1;
    long long offset = RD_KAFKA_OFFSET_INVALID, ts;
    double latency = -1.0;
    short delivery_count = -1;
    int tstype;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OiLOOOOOdih", kwlist, &topic, &partition, &offset, &key,
                                     &value, &headers, &error, &timestamp, &latency, &epoch, &delivery_count) ||
        timestamp_arg(timestamp, &tstype, &ts) < 0)
        return -1;
    /* Anything goes for the objects (tests put mocks there); a negative number means "unset".
     * The old values go after the critical section (their finalizers may run Python code). */
    PyObject *old[5];
    rd_kafka_headers_t *old_c_headers;
    Py_BEGIN_CRITICAL_SECTION(self);
    old[0] = self->topic, self->topic = none_as_null(topic);
    old[1] = self->key, self->key = none_as_null(key);
    old[2] = self->value, self->value = none_as_null(value);
    old[3] = self->headers, self->headers = none_as_null(headers);
    old[4] = self->error, self->error = none_as_null(error);
    old_c_headers = self->c_headers;
    self->c_headers = NULL;
    self->headers_raw = 0;
    self->partition = partition < 0 ? RD_KAFKA_PARTITION_UA : partition;
    self->offset = offset < 0 ? RD_KAFKA_OFFSET_INVALID : offset;
    self->leader_epoch = epoch < 0 ? -1 : epoch;
    self->delivery_count = delivery_count <= 0 ? -1 : delivery_count;
    self->latency_us = latency_us_of(latency);
    self->tstype = tstype;
    self->timestamp = ts;
    track(self);
    Py_END_CRITICAL_SECTION();
    if (old_c_headers != NULL)
        rd_kafka_headers_destroy(old_c_headers);
    for (int i = 0; i < 5; i++)
        Py_XDECREF(old[i]);
    return 0;
}

static int Message_traverse(MessageObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->topic);
    Py_VISIT(self->value);
    Py_VISIT(self->key);
    Py_VISIT(self->headers);
    Py_VISIT(self->error);
    return 0;
}

static int Message_clear(MessageObject *self) {
    Py_CLEAR(self->topic);
    Py_CLEAR(self->value);
    Py_CLEAR(self->key);
    Py_CLEAR(self->headers);
    Py_CLEAR(self->error);
    return 0;
}

static void Message_dealloc(MessageObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Message_clear(self);
    if (self->c_headers != NULL)
        rd_kafka_headers_destroy(self->c_headers);
    CFL_TSAN_FRESH(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* A field as a new reference (None for NULL), read in a critical section: another thread's
 * setter may be replacing it. */
static PyObject *field(MessageObject *self, PyObject *const *slot) {
    PyObject *v;
    Py_BEGIN_CRITICAL_SECTION(self);
    v = or_none(*slot);
    Py_END_CRITICAL_SECTION();
    return v;
}

/* A numeric field, read in a critical section (__init__ or set_timestamp() on another thread). */
#define NUMBER_FIELD(self, expr, type)                                                            \
    type v_;                                                                                      \
    Py_BEGIN_CRITICAL_SECTION(self);                                                              \
    v_ = (expr);                                                                                  \
    Py_END_CRITICAL_SECTION();

static PyObject *Message_topic(MessageObject *self, PyObject *unused) { return field(self, &self->topic); }
static PyObject *Message_value(MessageObject *self, PyObject *unused) { return field(self, &self->value); }
static PyObject *Message_key(MessageObject *self, PyObject *unused) { return field(self, &self->key); }
static PyObject *Message_error(MessageObject *self, PyObject *unused) { return field(self, &self->error); }

static PyObject *Message_partition(MessageObject *self, PyObject *unused) {
    NUMBER_FIELD(self, self->partition, int32_t)
    if (v_ < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(v_);
}

static PyObject *Message_offset(MessageObject *self, PyObject *unused) {
    NUMBER_FIELD(self, self->offset, int64_t)
    if (v_ < 0)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(v_);
}

/* A consumed record's headers (or a delivery report's, as the producer was given them) become
 * the list of (str, bytes|None) pairs, once. Headers a user passed to Message() stay as given.
 * Threads may ask at once. librdkafka's headers are converted in a critical section (plain C and
 * new str/bytes); a delivery report's user object is normalized outside it (that may run Python
 * code), and the first result stored wins. */
static int materialize_headers(MessageObject *self) {
    int rc = 0;
    PyObject *raw = NULL, *old = NULL;
    Py_BEGIN_CRITICAL_SECTION(self);
    if (self->c_headers != NULL) {
        PyObject *list = headers_from_c(self->c_headers);
        if (list == NULL) {
            rc = -1;
        } else {
            rd_kafka_headers_destroy(self->c_headers);
            self->c_headers = NULL;
            old = self->headers;
            self->headers = list;
        }
    } else if (self->headers_raw && self->headers != NULL) {
        raw = Py_NewRef(self->headers);
    }
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old);
    if (raw == NULL)
        return rc;
    PyObject *list = cfl_headers_normalize(raw);
    if (list == NULL)
        rc = -1;
    old = NULL;
    Py_BEGIN_CRITICAL_SECTION(self);
    if (list != NULL && self->headers_raw && self->headers == raw) {
        /* Unless another thread did, or set_headers() or __init__ replaced them meanwhile. */
        old = self->headers;
        self->headers = list;
        self->headers_raw = 0;
        list = NULL;
    }
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(list);
    Py_XDECREF(old);
    Py_DECREF(raw);
    return rc;
}

static PyObject *Message_headers(MessageObject *self, PyObject *unused) {
    if (materialize_headers(self) < 0)
        return NULL;
    PyObject *headers;
    Py_BEGIN_CRITICAL_SECTION(self);
    if (self->headers != NULL)
        track(self); /* the caller gets the object itself, and may put anything in it */
    headers = or_none(self->headers);
    Py_END_CRITICAL_SECTION();
    return headers;
}

static PyObject *Message_timestamp(MessageObject *self, PyObject *unused) {
    int tstype;
    long long ts;
    Py_BEGIN_CRITICAL_SECTION(self);
    tstype = self->tstype;
    ts = (long long)self->timestamp;
    Py_END_CRITICAL_SECTION();
    return Py_BuildValue("(iL)", tstype, ts);
}

static PyObject *Message_latency(MessageObject *self, PyObject *unused) {
    NUMBER_FIELD(self, self->latency_us, int64_t)
    if (v_ == -1)
        Py_RETURN_NONE;
    return PyFloat_FromDouble((double)v_ / 1e6);
}

static PyObject *Message_leader_epoch(MessageObject *self, PyObject *unused) {
    NUMBER_FIELD(self, self->leader_epoch, int32_t)
    if (v_ < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(v_);
}

static PyObject *Message_delivery_count(MessageObject *self, PyObject *unused) {
    NUMBER_FIELD(self, self->delivery_count, int)
    if (v_ <= 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(v_);
}

/* The setters take any object, as upstream's do (a DeserializingConsumer stores deserialized
 * keys and values; tests store mocks). `clear_headers`: drop headers not yet converted too. */
static PyObject *set_field(MessageObject *self, PyObject **field, PyObject *v, int clear_headers) {
    PyObject *old;
    rd_kafka_headers_t *old_c_headers = NULL;
    Py_BEGIN_CRITICAL_SECTION(self);
    track(self);
    if (clear_headers) {
        old_c_headers = self->c_headers;
        self->c_headers = NULL;
        self->headers_raw = 0;
    }
    old = *field;
    *field = none_as_null(v);
    Py_END_CRITICAL_SECTION();
    if (old_c_headers != NULL)
        rd_kafka_headers_destroy(old_c_headers);
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

static PyObject *Message_set_topic(MessageObject *self, PyObject *v) { return set_field(self, &self->topic, v, 0); }
static PyObject *Message_set_value(MessageObject *self, PyObject *v) { return set_field(self, &self->value, v, 0); }
static PyObject *Message_set_key(MessageObject *self, PyObject *v) { return set_field(self, &self->key, v, 0); }
static PyObject *Message_set_error(MessageObject *self, PyObject *v) { return set_field(self, &self->error, v, 0); }

static PyObject *Message_set_headers(MessageObject *self, PyObject *v) {
    return set_field(self, &self->headers, v, 1);
}

/* set_timestamp() (this package's own): an int is a create time; None clears it. */
static void store_timestamp(MessageObject *self, int tstype, long long ts) {
    Py_BEGIN_CRITICAL_SECTION(self);
    self->tstype = tstype;
    self->timestamp = ts;
    Py_END_CRITICAL_SECTION();
}

static PyObject *Message_set_timestamp(MessageObject *self, PyObject *ts) {
    if (ts == Py_None) {
        store_timestamp(self, RD_KAFKA_TIMESTAMP_NOT_AVAILABLE, 0);
        Py_RETURN_NONE;
    }
    if (PyTuple_Check(ts)) {
        int type;
        long long value;
        if (!PyArg_ParseTuple(ts, "iL;timestamp must be an int or a (type, timestamp) tuple", &type, &value))
            return NULL;
        if (type < RD_KAFKA_TIMESTAMP_NOT_AVAILABLE || type > RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME) {
            PyErr_Format(PyExc_ValueError, "unknown timestamp type %d", type);
            return NULL;
        }
        store_timestamp(self, type, value);
        Py_RETURN_NONE;
    }
    if (!PyLong_Check(ts)) {
        PyErr_Format(PyExc_TypeError, "timestamp must be an int or a (type, timestamp) tuple, not %.100s",
                     Py_TYPE(ts)->tp_name);
        return NULL;
    }
    long long v = PyLong_AsLongLong(ts);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    store_timestamp(self, RD_KAFKA_TIMESTAMP_CREATE_TIME, v);
    Py_RETURN_NONE;
}

/* Every field at one moment, the objects as new references (NULL: None), for code that reads
 * several fields or runs Python code with them while other threads may change the message. */
typedef struct {
    PyObject *topic, *value, *key, *headers, *error;
    int64_t offset, timestamp, latency_us;
    int32_t partition, leader_epoch;
    int tstype, delivery_count;
} MessageFields;

static void fields_get(MessageObject *self, MessageFields *f) {
    Py_BEGIN_CRITICAL_SECTION(self);
    f->topic = Py_XNewRef(self->topic);
    f->value = Py_XNewRef(self->value);
    f->key = Py_XNewRef(self->key);
    f->headers = Py_XNewRef(self->headers);
    f->error = Py_XNewRef(self->error);
    f->offset = self->offset;
    f->timestamp = self->timestamp;
    f->latency_us = self->latency_us;
    f->partition = self->partition;
    f->leader_epoch = self->leader_epoch;
    f->tstype = self->tstype;
    f->delivery_count = self->delivery_count;
    Py_END_CRITICAL_SECTION();
}

static void fields_release(MessageFields *f) {
    Py_XDECREF(f->topic);
    Py_XDECREF(f->value);
    Py_XDECREF(f->key);
    Py_XDECREF(f->headers);
    Py_XDECREF(f->error);
}

static Py_ssize_t Message_len(MessageObject *self) {
    PyObject *value = field(self, &self->value);
    Py_ssize_t n = value == Py_None ? 0 : PyObject_Length(value);
    Py_DECREF(value);
    return n;
}

/* Pickles as Message(topic, partition, offset, key, value, headers, error, timestamp, latency,
 * leader_epoch, delivery_count) with the fields as stored (-1, -1001, -1.0 ... when unset): the
 * same call upstream's pickles make, so a pickle loads in either package. A subclass pickles as
 * a Message (its __init__ may take other arguments). */
static PyObject *Message_reduce(MessageObject *self, PyObject *unused) {
    cfl_state *st = cfl_state_of((PyObject *)self);
    if (st == NULL || materialize_headers(self) < 0)
        return NULL;
    MessageFields f;
    fields_get(self, &f);
    double latency = f.latency_us < 0 ? -1.0 : (double)f.latency_us / 1e6;
    PyObject *r = Py_BuildValue("(O(OiLOOOO(iL)dii))", (PyObject *)st->MessageType,
                                f.topic ? f.topic : Py_None, (int)f.partition, (long long)f.offset,
                                f.key ? f.key : Py_None, f.value ? f.value : Py_None,
                                f.headers ? f.headers : Py_None, f.error ? f.error : Py_None, f.tstype,
                                (long long)f.timestamp, latency, (int)f.leader_epoch, f.delivery_count);
    fields_release(&f);
    return r;
}

static int same_object_field(PyObject *a, PyObject *b) {
    return PyObject_RichCompareBool(a ? a : Py_None, b ? b : Py_None, Py_EQ);
}

/* Equal when topic, partition, offset, key, value, headers, error, timestamp and leader epoch
 * are (latency and delivery count are not compared). Against any other type: unequal. */
static PyObject *Message_richcompare(MessageObject *self, PyObject *other, int op) {
    cfl_state *st = cfl_state_of((PyObject *)self);
    if (st == NULL)
        return NULL;
    if (op != Py_EQ && op != Py_NE)
        Py_RETURN_NOTIMPLEMENTED;
    if (!PyObject_TypeCheck(other, st->MessageType))
        return PyBool_FromLong(op == Py_NE);
    MessageObject *o = (MessageObject *)other;
    if (materialize_headers(self) < 0 || materialize_headers(o) < 0)
        return NULL;
    MessageFields a, b;
    fields_get(self, &a);
    fields_get(o, &b);
    int eq = a.partition == b.partition && a.offset == b.offset && a.tstype == b.tstype &&
             a.timestamp == b.timestamp && a.leader_epoch == b.leader_epoch;
    PyObject *const mine[] = {a.topic, a.key, a.value, a.headers, a.error};
    PyObject *const theirs[] = {b.topic, b.key, b.value, b.headers, b.error};
    for (size_t i = 0; eq == 1 && i < sizeof(mine) / sizeof(mine[0]); i++)
        eq = same_object_field(mine[i], theirs[i]);
    fields_release(&a);
    fields_release(&b);
    if (eq < 0)
        return NULL;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *Message_repr(MessageObject *self) {
    MessageFields f;
    fields_get(self, &f);
    PyObject *r = PyUnicode_FromFormat("<Message topic=%R partition=%d offset=%lld error=%R>",
                                       f.topic ? f.topic : Py_None, (int)f.partition, (long long)f.offset,
                                       f.error ? f.error : Py_None);
    fields_release(&f);
    return r;
}

static PyMethodDef Message_methods[] = {
    {"topic", (PyCFunction)Message_topic, METH_NOARGS, "topic($self, /)\n--\n\nThe topic name, or None."
     "\n\n"
     ":returns: the topic name (str) or None.\n"},
    {"partition", (PyCFunction)Message_partition, METH_NOARGS, "partition($self, /)\n--\n\nThe partition, or None if not set."
     "\n\n"
     ":returns: the partition (int) or None.\n"},
    {"offset", (PyCFunction)Message_offset, METH_NOARGS, "offset($self, /)\n--\n\nThe offset, or None if not known."
     "\n\n"
     ":returns: the offset (int) or None.\n"},
    {"key", (PyCFunction)Message_key, METH_NOARGS, "key($self, /)\n--\n\nThe key (bytes), or None."
     "\n\n"
     ":returns: the key (bytes) or None.\n"},
    {"value", (PyCFunction)Message_value, METH_NOARGS, "value($self, /)\n--\n\nThe value (bytes), or None."
     "\n\n"
     ":returns: the value (bytes) or None.\n"},
    {"deserialized_key", (PyCFunction)Message_key, METH_NOARGS,
     "deserialized_key($self, /)\n--\n\nThe key as a DeserializingConsumer left it (the same slot as key()).\n\n"
     ":returns: the deserialized key, or the raw key (bytes) of a message no deserializer saw, or None.\n"},
    {"deserialized_value", (PyCFunction)Message_value, METH_NOARGS,
     "deserialized_value($self, /)\n--\n\nThe value as a DeserializingConsumer left it (the same slot as value()).\n\n"
     ":returns: the deserialized value, or the raw value (bytes) of a message no deserializer saw, or None.\n"},
    {"headers", (PyCFunction)Message_headers, METH_NOARGS,
     "headers($self, /)\n--\n\nThe headers as a list of (str, bytes|None), or None; a message built by hand returns "
     "the headers it was given."
     "\n\n"
     ":returns: list of (str, bytes|None) or None.\n"},
    {"error", (PyCFunction)Message_error, METH_NOARGS, "error($self, /)\n--\n\nA KafkaError if this message reports an error, else None."
     "\n\n"
     ":returns: a KafkaError, or None.\n"},
    {"timestamp", (PyCFunction)Message_timestamp, METH_NOARGS,
     "timestamp($self, /)\n--\n\n(timestamp type, milliseconds since the epoch); the type is one of the TIMESTAMP_* constants."
     "\n\n"
     ":returns: (timestamp type, milliseconds) tuple.\n"},
    {"latency", (PyCFunction)Message_latency, METH_NOARGS,
     "latency($self, /)\n--\n\nSeconds from produce() to the delivery report, or None outside delivery reports."
     "\n\n"
     ":returns: the latency in seconds (float), or None.\n"},
    {"leader_epoch", (PyCFunction)Message_leader_epoch, METH_NOARGS, "leader_epoch($self, /)\n--\n\nThe partition leader epoch, or None."
     "\n\n"
     ":returns: the leader epoch (int), or None.\n"},
    {"delivery_count", (PyCFunction)Message_delivery_count, METH_NOARGS,
     "delivery_count($self, /)\n--\n\nHow many times a share group delivered this record.\n\n"
     ":returns: the delivery count (>= 1) of a record from a share consumer, else None.\n"},
    {"set_topic", (PyCFunction)Message_set_topic, METH_O, "set_topic($self, topic, /)\n--\n\nReplace the topic."
     "\n\n"
     ":param topic: the new topic name (str).\n"},
    {"set_value", (PyCFunction)Message_set_value, METH_O, "set_value($self, value, /)\n--\n\nReplace the value."
     "\n\n"
     ":param value: the new value (any object).\n"},
    {"set_key", (PyCFunction)Message_set_key, METH_O, "set_key($self, key, /)\n--\n\nReplace the key."
     "\n\n"
     ":param key: the new key (any object).\n"},
    {"set_headers", (PyCFunction)Message_set_headers, METH_O, "set_headers($self, headers, /)\n--\n\nReplace the headers."
     "\n\n"
     ":param headers: the new headers.\n"},
    {"set_error", (PyCFunction)Message_set_error, METH_O, "set_error($self, error, /)\n--\n\nReplace the error."
     "\n\n"
     ":param error: a KafkaError, or None.\n"},
    {"set_timestamp", (PyCFunction)Message_set_timestamp, METH_O,
     "set_timestamp($self, timestamp, /)\n--\n\nReplace the timestamp: an int (create time, ms), a (type, ms) tuple or None."
     "\n\n"
     ":param timestamp: int, (type, ms) tuple or None.\n"
     ":raises TypeError: for any other value.\n"},
    {"__reduce__", (PyCFunction)Message_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot Message_slots[] = {
    {Py_tp_doc, "Message(topic=None, partition=-1, offset=-1001, key=None, value=None, headers=None,\n"
                "        error=None, timestamp=None, latency=-1.0, leader_epoch=-1, delivery_count=-1)\n\n"
                "A Kafka record: consumed, reported as delivered, or built by hand (for tests).\n"
                "timestamp is a (type, milliseconds) tuple; a negative partition, offset, latency,\n"
                "leader epoch or delivery count means none."},
    {Py_tp_new, Message_new},
    {Py_tp_init, Message_init},
    {Py_tp_dealloc, Message_dealloc},
    {Py_tp_traverse, Message_traverse},
    {Py_tp_clear, Message_clear},
    {Py_tp_methods, Message_methods},
    {Py_tp_repr, Message_repr},
    {Py_tp_richcompare, Message_richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_sq_length, Message_len},
    {0, NULL},
};

static PyType_Spec Message_spec = {
    .name = CFL_QUALNAME("Message"),
    .basicsize = sizeof(MessageObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = Message_slots,
};

int cfl_message_init_type(PyObject *module, cfl_state *st) {
    st->MessageType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Message_spec, NULL);
    if (st->MessageType == NULL)
        return -1;
    return PyModule_AddType(module, st->MessageType);
}

/* ---- _records(): Messages into a facade's record type, in one call ------------------------ */

/* The headers, converted, as a new reference (NULL: none); -1 with an exception. */
static int record_headers(MessageObject *m, PyObject **out) {
    *out = NULL;
    if (materialize_headers(m) < 0)
        return -1;
    Py_BEGIN_CRITICAL_SECTION(m);
    *out = Py_XNewRef(m->headers);
    if (*out != NULL)
        track(m); /* the record shares the list with the message */
    Py_END_CRITICAL_SECTION();
    return 0;
}

/* One field of a record, by its layout code (see cfl_records), from the message's fields `f`
 * (taken at once); a new reference or NULL. */
static PyObject *record_field(MessageObject *m, const MessageFields *f, char code) {
    switch (code) {
    case 't': return or_none(f->topic);
    case 'p': return f->partition < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(f->partition);
    case 'o': return f->offset < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(f->offset);
    case 'l': return PyLong_FromLong(f->leader_epoch < 0 ? -1 : f->leader_epoch);
    case 's': return PyLong_FromLongLong(f->timestamp);
    case 'y': return PyLong_FromLong(f->tstype > 0 ? f->tstype - 1 : -1);
    case 'Y': return PyLong_FromLong(f->tstype == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? 1 : 0);
    case 'k': return or_none(f->key);
    case 'v': return or_none(f->value);
    case 'K':
    case 'V': {
        PyObject *b = code == 'K' ? f->key : f->value;
        Py_ssize_t n = b == NULL ? -1 : PyObject_Length(b);
        return n < 0 && PyErr_Occurred() ? NULL : PyLong_FromSsize_t(n);
    }
    case 'n': return Py_NewRef(Py_None);
    case 'h':
    case 'H':
    case 'S': {
        PyObject *h;
        if (record_headers(m, &h) < 0)
            return NULL;
        int empty = h == NULL || (PyList_Check(h) && PyList_GET_SIZE(h) == 0);
        if (code == 'h' || code == 'H' || empty) {
            PyObject *r = code == 'h' ? (empty ? PyList_New(0) : Py_NewRef(h))
                          : code == 'H' ? (empty ? PyTuple_New(0) : PySequence_Tuple(h))
                                        : PyLong_FromLong(-1);
            Py_XDECREF(h);
            return r;
        }
        /* Serialized size: UTF-8 bytes of every name plus the length of every value. */
        PyObject *seq = cfl_sequence_fast(h, "headers must be a sequence");
        Py_DECREF(h);
        if (seq == NULL)
            return NULL;
        Py_ssize_t total = 0;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
            Py_ssize_t klen, vlen = 0;
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                !PyUnicode_Check(PyTuple_GET_ITEM(pair, 0))) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_TypeError, "headers must be (str, bytes) pairs");
                return NULL;
            }
            if (PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(pair, 0), &klen) == NULL ||
                (PyTuple_GET_ITEM(pair, 1) != Py_None && (vlen = PyObject_Length(PyTuple_GET_ITEM(pair, 1))) < 0)) {
                Py_DECREF(seq);
                return NULL;
            }
            total += klen + vlen;
        }
        Py_DECREF(seq);
        return PyLong_FromSsize_t(total);
    }
    default:
        PyErr_Format(PyExc_ValueError, "unknown record field code %c", code);
        return NULL;
    }
}

/* ---- grouping records by partition (_records(..., by), aiokafka's getmany()) --------------- */

typedef struct {
    PyObject *groups;  /* owned: by(topic, partition) -> list of records */
    PyObject *bucket;  /* borrowed from groups: the list of the previous record's partition */
    PyObject *topic;   /* owned (NULL: None): the previous record's topic */
    int32_t partition; /* the previous record's partition */
    int any;           /* a record was added */
} Grouper;

/* Add rec (a new reference, consumed) under by(m's topic, m's partition), m a message's fields (a snapshot). 0, or -1 with an
 * exception set. Runs of one partition cost one comparison per record. */
static int group_add(Grouper *g, PyTypeObject *by, const MessageFields *m, PyObject *rec) {
    int same = 0;
    if (g->any && g->partition == m->partition) {
        if (g->topic == m->topic)
            same = 1;
        else if (g->topic != NULL && m->topic != NULL &&
                 (same = PyObject_RichCompareBool(g->topic, m->topic, Py_EQ)) < 0)
            goto fail;
    }
    if (!same) {
        PyObject *key = cfl_tuple_subtype_alloc(by, 2);
        PyObject *part = m->partition < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(m->partition);
        if (key == NULL || part == NULL) {
            Py_XDECREF(key);
            Py_XDECREF(part);
            goto fail;
        }
        PyTuple_SET_ITEM(key, 0, or_none(m->topic));
        PyTuple_SET_ITEM(key, 1, part);
        /* g->groups is this call's own dict, not yet seen by another thread: borrowed is fine. */
        PyObject *bucket = PyDict_GetItemWithError(g->groups, key);
        if (bucket == NULL && !PyErr_Occurred()) {
            bucket = PyList_New(0);
            if (bucket != NULL && PyDict_SetItem(g->groups, key, bucket) < 0)
                Py_CLEAR(bucket);
            Py_XDECREF(bucket); /* the dict holds it */
        }
        Py_DECREF(key);
        if (bucket == NULL)
            goto fail;
        g->bucket = bucket;
        Py_XSETREF(g->topic, Py_XNewRef(m->topic));
        g->partition = m->partition;
        g->any = 1;
    }
    int rc = PyList_Append(g->bucket, rec);
    Py_DECREF(rec);
    return rc;
fail:
    Py_DECREF(rec);
    return -1;
}

/* ---- building records -------------------------------------------------------------------- */

int cfl_record_spec(CflRecordSpec *spec, PyObject *cls, PyObject *layout, PyObject *names, PyObject *by) {
    memset(spec, 0, sizeof(*spec));
    if (!PyType_Check(cls)) {
        PyErr_Format(PyExc_TypeError, "cls must be a type, not %.100s", Py_TYPE(cls)->tp_name);
        return -1;
    }
    if (by != NULL && by != Py_None) {
        if (!PyType_Check(by) || !PyType_IsSubtype((PyTypeObject *)by, &PyTuple_Type) ||
            ((PyTypeObject *)by)->tp_itemsize != sizeof(PyObject *)) {
            PyErr_SetString(PyExc_TypeError, "by must be a named tuple class (topic, partition) or None");
            return -1;
        }
        spec->by = (PyTypeObject *)by;
    }
    spec->codes = PyUnicode_Check(layout) ? PyUnicode_AsUTF8AndSize(layout, &spec->nfields) : NULL;
    if (spec->codes == NULL) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "layout must be str, not %.100s", Py_TYPE(layout)->tp_name);
        return -1;
    }
    spec->type = (PyTypeObject *)cls;
    spec->as_tuple = PyType_IsSubtype(spec->type, &PyTuple_Type);
    if (spec->as_tuple) {
        if (spec->type->tp_itemsize != sizeof(PyObject *)) {
            PyErr_SetString(PyExc_TypeError, "cls must be a plain tuple subclass (a named tuple)");
            return -1;
        }
        return 0;
    }
    if (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) != spec->nfields) {
        PyErr_SetString(PyExc_TypeError, "names must be a tuple with one name per layout code");
        return -1;
    }
    for (Py_ssize_t i = 0; i < spec->nfields; i++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(names, i))) {
            PyErr_SetString(PyExc_TypeError, "names must be str");
            return -1;
        }
    spec->names = names;
    /* A class without a __setattr__ of its own (a data class) gets its attributes through the
     * generic setter directly: no interning of the names nor slot dispatch per field. */
    spec->setattro = spec->type->tp_setattro == PyObject_GenericSetAttr ? PyObject_GenericSetAttr : NULL;
    spec->empty = PyTuple_New(0);
    return spec->empty != NULL ? 0 : -1;
}

int cfl_record_spec_slots(cfl_state *st, CflRecordSpec *spec) {
    spec->by_slot = !spec->as_tuple && spec->setattro != NULL && spec->nfields <= CFL_RECORD_MAX_SLOTS;
    int watched = spec->by_slot;
    for (Py_ssize_t i = 0; spec->by_slot && i < spec->nfields; i++) {
        int field = 0;
        int slot = cfl_slot_offset(st, spec->type, PyTuple_GET_ITEM(spec->names, i), &spec->slot[i], &field);
        if (slot < 0)
            return -1;
        spec->by_slot = slot;
        watched &= field;
    }
    spec->untrack = spec->by_slot && watched && cfl_slots_are_all(spec->type, spec->slot, spec->nfields);
    return 0;
}

void cfl_record_spec_release(CflRecordSpec *spec) { Py_CLEAR(spec->empty); }

/* A new record of message m (the caller holds a reference to m) from its fields `f`: a snapshot
 * (fields_get) for a Message other threads may see, or NULL with an exception set. */
static PyObject *record_build(const CflRecordSpec *spec, MessageObject *m, const MessageFields *f) {
    PyTypeObject *type = spec->type;
    PyObject *rec = spec->as_tuple ? cfl_tuple_subtype_alloc(type, spec->nfields) : type->tp_new(type, spec->empty, NULL);
    if (rec == NULL)
        return NULL;
    int reach = 0; /* a field may lead back to the record (spec->untrack only) */
    for (Py_ssize_t i = 0; i < spec->nfields; i++) {
        PyObject *v = record_field(m, f, spec->codes[i]);
        if (v == NULL) {
            Py_DECREF(rec); /* a half-filled tuple releases the items it has */
            return NULL;
        }
        if (spec->as_tuple) {
            PyTuple_SET_ITEM(rec, i, v);
        } else if (spec->by_slot) {
            /* a new object no other thread has seen: its slot is empty until now */
            PyObject **at = (PyObject **)((char *)rec + spec->slot[i]);
            Py_XSETREF(*at, v);
            if (spec->untrack && !reach)
                reach = cfl_may_reach_back(v);
        } else {
            PyObject *name = PyTuple_GET_ITEM(spec->names, i);
            int rc = spec->setattro != NULL ? spec->setattro(rec, name, v) : PyObject_SetAttr(rec, name, v);
            Py_DECREF(v);
            if (rc < 0) {
                Py_DECREF(rec);
                return NULL;
            }
        }
    }
    if (spec->untrack && !reach)
        PyObject_GC_UnTrack(rec); /* tracked again by a field given a container (slot_field.c) */
    return rec;
}

/* record_build of a Message other threads may see and change: from a snapshot of its fields. */
static PyObject *record_build_shared(const CflRecordSpec *spec, MessageObject *m) {
    MessageFields mf;
    fields_get(m, &mf);
    PyObject *rec = record_build(spec, m, &mf);
    fields_release(&mf);
    return rec;
}

/* The fields of the private scratch Message of cfl_records_of_fetched(), borrowed: no other
 * thread ever sees that Message, so they are read directly, without a critical section or new
 * references (nothing to release). */
static void fields_of_scratch(MessageObject *m, MessageFields *f) {
    f->topic = m->topic;
    f->value = m->value;
    f->key = m->key;
    f->headers = m->headers;
    f->error = m->error;
    f->offset = m->offset;
    f->timestamp = m->timestamp;
    f->latency_us = m->latency_us;
    f->partition = m->partition;
    f->leader_epoch = m->leader_epoch;
    f->tstype = m->tstype;
    f->delivery_count = m->delivery_count;
}

/* Empty a scratch message and fill it from a fetched record without an error, as
 * cfl_message_from_rkm() fills a new one. 0, or -1 with an exception set. */
static int message_refill(MessageObject *m, rd_kafka_message_t *rkm, PyObject *topic, int peek_headers) {
    Message_clear(m);
    if (m->c_headers != NULL) {
        rd_kafka_headers_destroy(m->c_headers);
        m->c_headers = NULL;
    }
    m->headers_raw = 0;
    if (PyObject_GC_IsTracked((PyObject *)m))
        PyObject_GC_UnTrack(m); /* holds only str and bytes again (see cfl_message_from_rkm) */
    m->topic = Py_XNewRef(topic);
    return fill_fields(m, rkm, peek_headers);
}

PyObject *cfl_records_of_fetched(cfl_state *st, const CflRecordSpec *spec, rd_kafka_message_t **rkms,
                                 Py_ssize_t n, PyObject *(*topic_of)(void *, const rd_kafka_message_t *),
                                 void *ctx, int peek_headers) {
    MessageObject *m = cfl_message_alloc(st);
    if (m == NULL)
        return NULL;
    PyObject_GC_UnTrack(m);
    Grouper g = {.groups = spec->by != NULL ? PyDict_New() : NULL};
    PyObject *list = spec->by == NULL ? PyList_New(n) : NULL;
    PyObject *out = spec->by != NULL ? g.groups : list;
    if (out == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *topic = rkms[i]->rkt != NULL ? topic_of(ctx, rkms[i]) : NULL; /* a new reference */
        if (rkms[i]->rkt != NULL && topic == NULL)
            goto fail;
        int rc = message_refill(m, rkms[i], topic, peek_headers);
        Py_XDECREF(topic); /* m holds its own */
        if (rc < 0)
            goto fail;
        /* m is this call's scratch Message, never seen by another thread: its fields are read
         * directly (fields_of_scratch), not through a snapshot. */
        MessageFields mf;
        fields_of_scratch(m, &mf);
        PyObject *rec = record_build(spec, m, &mf);
        if (rec == NULL)
            goto fail;
        if (list != NULL)
            PyList_SET_ITEM(list, i, rec);
        else if (group_add(&g, spec->by, &mf, rec) < 0)
            goto fail;
    }
    Py_XDECREF(g.topic);
    Py_DECREF(m);
    return out;
fail:
    Py_XDECREF(g.topic);
    Py_XDECREF(out);
    Py_DECREF(m);
    return NULL;
}

/* messages[i] as a strong reference (another thread, or a field's conversion, may change the
 * list): 1 and *out, 0 when the list no longer has an item i, -1 with TypeError when it is not a
 * Message. */
static int message_at(cfl_state *st, PyObject *msgs, Py_ssize_t i, PyObject **out) {
    PyObject *item = cfl_list_get_ref(msgs, i);
    if (item == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (!PyObject_TypeCheck(item, st->MessageType)) {
        PyErr_Format(PyExc_TypeError, "messages must hold Message, not %.100s", Py_TYPE(item)->tp_name);
        Py_DECREF(item);
        return -1;
    }
    *out = item;
    return 1;
}

/* _records(messages, cls, layout, names=None, by=None): a list with one `cls` per Message, its
 * fields given by `layout`, one character per field (t topic, p partition, o offset, l leader
 * epoch or -1, s timestamp ms, y timestamp type - 1 (or -1), Y 1 for log-append time else 0, k
 * key, v value, K/V key/value length or -1, h headers list ([] when none), H headers tuple (()
 * when none), S headers' serialized size or -1, n None). A tuple subclass (a named tuple) is
 * filled in place, as tuple.__new__(cls, fields) would; any other class is made with
 * object.__new__ and its attributes `names` set, as a data class's __init__ would. With `by` (a
 * named tuple class of two fields), a dict instead: by(topic, partition) -> that partition's
 * records in message order (aiokafka's getmany()), or None when a message carries an error
 * (nothing is built then). The facades' record builders. */
PyObject *cfl_records(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 3 || nargs > 5) {
        PyErr_Format(PyExc_TypeError, "_records() takes 3 to 5 positional arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *msgs = args[0];
    cfl_state *st = cfl_get_state(module);
    if (!PyList_Check(msgs)) {
        PyErr_Format(PyExc_TypeError, "messages must be a list, not %.100s", Py_TYPE(msgs)->tp_name);
        return NULL;
    }
    CflRecordSpec spec;
    if (cfl_record_spec(&spec, args[1], args[2], nargs > 3 ? args[3] : Py_None, nargs > 4 ? args[4] : NULL) < 0)
        return NULL;
    if (cfl_record_spec_slots(st, &spec) < 0) {
        cfl_record_spec_release(&spec);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(msgs);
    PyObject *out = NULL;
    Grouper g = {0};
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item;
        int at = message_at(st, msgs, i, &item);
        if (at <= 0) {
            if (at < 0)
                goto fail;
            break; /* it shrank: said below */
        }
        if (spec.by != NULL) {
            int has_error;
            Py_BEGIN_CRITICAL_SECTION(item);
            has_error = ((MessageObject *)item)->error != NULL;
            Py_END_CRITICAL_SECTION();
            if (has_error) {
                Py_DECREF(item);
                cfl_record_spec_release(&spec);
                Py_RETURN_NONE;
            }
        }
        Py_DECREF(item);
    }
    out = spec.by != NULL ? (g.groups = PyDict_New()) : PyList_New(n);
    if (out == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item; /* checked again: a field's conversion may have changed the list */
        int at = message_at(st, msgs, i, &item);
        if (at <= 0) {
            if (at < 0)
                goto fail;
            break; /* it shrank: said below */
        }
        MessageFields mf; /* the fields at one moment: other threads may change the Message */
        fields_get((MessageObject *)item, &mf);
        PyObject *rec = record_build(&spec, (MessageObject *)item, &mf);
        int rc = rec == NULL ? -1 : 0;
        if (rec != NULL && spec.by == NULL)
            PyList_SET_ITEM(out, i, rec);
        else if (rec != NULL)
            rc = group_add(&g, spec.by, &mf, rec);
        fields_release(&mf);
        Py_DECREF(item);
        if (rc < 0)
            goto fail;
    }
    if (PyList_GET_SIZE(msgs) != n) {
        PyErr_SetString(PyExc_RuntimeError, "messages changed size during _records()");
        goto fail;
    }
    Py_XDECREF(g.topic);
    cfl_record_spec_release(&spec);
    return out;
fail:
    Py_XDECREF(g.topic);
    cfl_record_spec_release(&spec);
    Py_XDECREF(out);
    return NULL;
}

/* _record(message, cls, layout, names=None): _records([message], cls, layout, names)[0], without
 * the lists (aiokafka's getone()). */
PyObject *cfl_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 3 || nargs > 4) {
        PyErr_Format(PyExc_TypeError, "_record() takes 3 or 4 positional arguments (%zd given)", nargs);
        return NULL;
    }
    cfl_state *st = cfl_get_state(module);
    if (!PyObject_TypeCheck(args[0], st->MessageType)) {
        PyErr_Format(PyExc_TypeError, "message must be a Message, not %.100s", Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    CflRecordSpec spec;
    if (cfl_record_spec(&spec, args[1], args[2], nargs > 3 ? args[3] : Py_None, NULL) < 0)
        return NULL;
    PyObject *rec = record_build_shared(&spec, (MessageObject *)args[0]);
    cfl_record_spec_release(&spec);
    return rec;
}
