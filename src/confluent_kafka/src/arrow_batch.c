/* consume_arrow()'s record batch: columns built in C from consumed records, exported through
 * the Arrow C Data Interface by ArrowBatch (see arrow.h).
 *
 * The column buffers live in one refcounted CflArrowBuilder, shared by the ArrowBatch object and
 * every array exported from it; each export is one block of ArrowArray nodes whose release
 * callbacks may run on any thread, without the GIL, so they touch no Python object. */
#include "arrow.h"

#include <stdlib.h>
#include <string.h>

#include "message.h"

#if defined(_MSC_VER)
#include <intrin.h>
typedef volatile long cfl_refcnt;
#define CFL_REF_INC(p) _InterlockedIncrement(p)
#define CFL_REF_DEC(p) _InterlockedDecrement(p)
#else
typedef long cfl_refcnt;
#define CFL_REF_INC(p) __atomic_add_fetch(p, 1, __ATOMIC_ACQ_REL)
#define CFL_REF_DEC(p) __atomic_sub_fetch(p, 1, __ATOMIC_ACQ_REL)
#endif

/* A variable-size column: validity (NULL when nothing is null), int32 offsets, bytes. */
typedef struct {
    uint8_t *valid;
    int32_t *offs;
    uint8_t *data;
    int64_t nulls, bytes;
} VarCol;

struct CflArrowBuilder {
    cfl_refcnt refs;
    int64_t n, n_headers;
    VarCol key, value, topic, hkey, hvalue;
    int32_t *partition, *tstype, *hoffs; /* hoffs: the headers list's offsets */
    int64_t *offset, *timestamp;
    uint8_t *ts_valid, *h_valid;
    int64_t ts_nulls, h_nulls;
};

static void varcol_free(VarCol *c) {
    free(c->valid);
    free(c->offs);
    free(c->data);
}

static void builder_decref(CflArrowBuilder *b) {
    if (b == NULL || CFL_REF_DEC(&b->refs) != 0)
        return;
    varcol_free(&b->key);
    varcol_free(&b->value);
    varcol_free(&b->topic);
    varcol_free(&b->hkey);
    varcol_free(&b->hvalue);
    free(b->partition);
    free(b->tstype);
    free(b->hoffs);
    free(b->offset);
    free(b->timestamp);
    free(b->ts_valid);
    free(b->h_valid);
    free(b);
}

void cfl_arrow_builder_free(CflArrowBuilder *b) { builder_decref(b); }

/* ---- rows from two sources ------------------------------------------------------------- */

/* One record as the builder sees it, whatever it came from. */
typedef struct {
    const void *key, *value;
    size_t key_len, value_len;
    const char *topic;
    size_t topic_len;
    int32_t partition;
    int64_t offset, timestamp;
    int tstype;
    rd_kafka_headers_t *c_headers; /* headers of a record, or */
    PyObject *py_headers;          /* a Message's list of (str, bytes|None), or neither */
} Row;

typedef int (*row_fn)(void *src, Py_ssize_t i, Row *row);

static size_t header_count(const Row *r) {
    if (r->c_headers != NULL)
        return rd_kafka_header_cnt(r->c_headers);
    return r->py_headers != NULL ? (size_t)PyList_GET_SIZE(r->py_headers) : 0;
}

/* Header j of a row: 0, or -1 with an exception set (a Message with a malformed header). */
static int header_at(const Row *r, size_t j, const char **name, size_t *name_len, const void **val, size_t *val_len) {
    if (r->c_headers != NULL) {
        rd_kafka_header_get_all(r->c_headers, j, name, val, val_len);
        *name_len = strlen(*name);
        return 0;
    }
    PyObject *pair = PyList_GET_ITEM(r->py_headers, (Py_ssize_t)j);
    Py_ssize_t nl;
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
        (*name = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(pair, 0), &nl)) == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a message header must be a (str, bytes | None) pair");
        return -1;
    }
    *name_len = (size_t)nl;
    PyObject *v = PyTuple_GET_ITEM(pair, 1);
    if (v == Py_None) {
        *val = NULL, *val_len = 0;
        return 0;
    }
    if (!PyBytes_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a message header value must be bytes or None");
        return -1;
    }
    *val = PyBytes_AS_STRING(v);
    *val_len = (size_t)PyBytes_GET_SIZE(v);
    return 0;
}

/* Records: looking up a record's headers parses them anew each time when there are none (nothing
 * is cached by librdkafka then), and that costs more than the rest of the row: pass 1 looks them up
 * once per record and pass 2 reuses what it found. */
typedef struct {
    rd_kafka_message_t **rkms;
    rd_kafka_headers_t **headers; /* one per record, set up to `looked_up`; NULL: no headers wanted */
    Py_ssize_t looked_up;
    int peek; /* cfl_record_headerless() may answer first */
} RecordSource;

static int row_of_record(void *src, Py_ssize_t i, Row *r) {
    RecordSource *rs = src;
    rd_kafka_message_t *m = rs->rkms[i];
    rd_kafka_timestamp_type_t tstype;
    r->key = m->key;
    r->key_len = m->key_len;
    r->value = m->payload;
    r->value_len = m->len;
    r->topic = m->rkt ? rd_kafka_topic_name(m->rkt) : "";
    r->topic_len = strlen(r->topic);
    r->partition = m->partition;
    r->offset = m->offset;
    r->timestamp = rd_kafka_message_timestamp(m, &tstype);
    r->tstype = (int)tstype;
    r->py_headers = NULL;
    r->c_headers = NULL;
    if (rs->headers == NULL)
        return 0;
    if (i >= rs->looked_up) {
        if ((rs->peek && cfl_record_headerless(m)) ||
            rd_kafka_message_headers(m, &rs->headers[i]) != RD_KAFKA_RESP_ERR_NO_ERROR)
            rs->headers[i] = NULL;
        rs->looked_up = i + 1;
    }
    r->c_headers = rs->headers[i];
    return 0;
}

/* Messages: src is {PyObject *const *msgs, PyObject *headers (a list, one entry per message;
 * NULL: no headers wanted)}. */
typedef struct {
    PyObject *const *msgs;
    PyObject *headers;
} MessageSource;

static int bytes_field(PyObject *o, const void **p, size_t *len) {
    if (o == NULL || o == Py_None) {
        *p = NULL, *len = 0;
        return 0;
    }
    if (!PyBytes_Check(o)) {
        PyErr_Format(PyExc_TypeError, "message key and value must be bytes or None, not %.100s", Py_TYPE(o)->tp_name);
        return -1;
    }
    *p = PyBytes_AS_STRING(o);
    *len = (size_t)PyBytes_GET_SIZE(o);
    return 0;
}

static int row_of_message(void *src, Py_ssize_t i, Row *r) {
    MessageSource *s = (MessageSource *)src;
    MessageObject *m = (MessageObject *)s->msgs[i];
    if (bytes_field(m->key, &r->key, &r->key_len) < 0 || bytes_field(m->value, &r->value, &r->value_len) < 0)
        return -1;
    Py_ssize_t tl = 0;
    r->topic = m->topic ? PyUnicode_AsUTF8AndSize(m->topic, &tl) : "";
    if (r->topic == NULL)
        return -1;
    r->topic_len = (size_t)tl;
    r->partition = m->partition;
    r->offset = m->offset;
    r->timestamp = m->timestamp;
    r->tstype = m->tstype;
    r->c_headers = NULL;
    PyObject *h = s->headers != NULL ? PyList_GET_ITEM(s->headers, i) : NULL;
    r->py_headers = h != NULL && PyList_Check(h) ? h : NULL;
    return 0;
}

/* ---- building -------------------------------------------------------------------------- */

static int varcol_alloc(VarCol *c, int64_t n, int64_t bytes, int64_t nulls) {
    c->offs = malloc(sizeof(int32_t) * (size_t)(n + 1));
    c->data = malloc((size_t)(bytes > 0 ? bytes : 1));
    c->valid = nulls > 0 ? calloc((size_t)(n + 7) / 8, 1) : NULL;
    c->nulls = nulls;
    c->bytes = 0;
    if (c->offs != NULL)
        c->offs[0] = 0;
    return c->offs != NULL && c->data != NULL && (nulls == 0 || c->valid != NULL) ? 0 : -1;
}

/* Append row i's bytes (ptr NULL: null, when the column has nulls). */
static void varcol_put(VarCol *c, int64_t i, const void *p, size_t len) {
    if (p != NULL) {
        memcpy(c->data + c->bytes, p, len);
        c->bytes += (int64_t)len;
        if (c->valid != NULL)
            c->valid[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    c->offs[i + 1] = (int32_t)c->bytes;
}

static void set_bit(uint8_t *bits, int64_t i) { bits[i >> 3] |= (uint8_t)(1u << (i & 7)); }

static CflArrowBuilder *build(row_fn get, void *src, Py_ssize_t n, Py_ssize_t *taken) {
    /* Pass 1: how many rows fit int32 offsets, and every buffer's size. */
    int64_t key_b = 0, val_b = 0, top_b = 0, hk_b = 0, hv_b = 0, nh = 0;
    int64_t key_n = 0, val_n = 0, ts_n = 0, h_n = 0, hv_n = 0;
    Py_ssize_t rows = 0;
    Row r;
    for (; rows < n; rows++) {
        if (get(src, rows, &r) < 0)
            return NULL;
        size_t cnt = header_count(&r);
        int64_t hk = 0, hv = 0, hvn = 0;
        for (size_t j = 0; j < cnt; j++) {
            const char *name;
            const void *val;
            size_t nl, vl;
            if (header_at(&r, j, &name, &nl, &val, &vl) < 0)
                return NULL;
            hk += (int64_t)nl;
            hv += (int64_t)vl;
            hvn += val == NULL;
        }
        if (key_b + (int64_t)r.key_len > INT32_MAX || val_b + (int64_t)r.value_len > INT32_MAX ||
            top_b + (int64_t)r.topic_len > INT32_MAX || hk_b + hk > INT32_MAX || hv_b + hv > INT32_MAX ||
            nh + (int64_t)cnt > INT32_MAX)
            break;
        key_b += (int64_t)r.key_len, val_b += (int64_t)r.value_len, top_b += (int64_t)r.topic_len;
        hk_b += hk, hv_b += hv, nh += (int64_t)cnt, hv_n += hvn;
        key_n += r.key == NULL, val_n += r.value == NULL, ts_n += r.timestamp < 0, h_n += cnt == 0;
    }

    CflArrowBuilder *b = calloc(1, sizeof(*b));
    if (b == NULL)
        return (CflArrowBuilder *)PyErr_NoMemory();
    b->refs = 1;
    b->n = rows;
    b->n_headers = nh;
    b->ts_nulls = ts_n;
    b->h_nulls = h_n;
    size_t n1 = (size_t)(rows > 0 ? rows : 1), bits = (n1 + 7) / 8;
    b->partition = malloc(sizeof(int32_t) * n1);
    b->tstype = malloc(sizeof(int32_t) * n1);
    b->hoffs = malloc(sizeof(int32_t) * (n1 + 1));
    b->offset = malloc(sizeof(int64_t) * n1);
    b->timestamp = malloc(sizeof(int64_t) * n1);
    b->ts_valid = ts_n ? calloc(bits, 1) : NULL;
    b->h_valid = h_n ? calloc(bits, 1) : NULL;
    if (varcol_alloc(&b->key, rows, key_b, key_n) < 0 || varcol_alloc(&b->value, rows, val_b, val_n) < 0 ||
        varcol_alloc(&b->topic, rows, top_b, 0) < 0 || varcol_alloc(&b->hkey, nh, hk_b, 0) < 0 ||
        varcol_alloc(&b->hvalue, nh, hv_b, hv_n) < 0 || !b->partition || !b->tstype || !b->hoffs || !b->offset ||
        !b->timestamp || (ts_n && !b->ts_valid) || (h_n && !b->h_valid)) {
        builder_decref(b);
        return (CflArrowBuilder *)PyErr_NoMemory();
    }

    /* Pass 2: copy. A null key or value is told apart from an empty one by its pointer. */
    b->hoffs[0] = 0;
    int64_t h = 0;
    for (Py_ssize_t i = 0; i < rows; i++) {
        if (get(src, i, &r) < 0) {
            builder_decref(b);
            return NULL;
        }
        varcol_put(&b->key, i, r.key, r.key_len);
        varcol_put(&b->value, i, r.value, r.value_len);
        varcol_put(&b->topic, i, r.topic, r.topic_len);
        b->partition[i] = r.partition;
        b->offset[i] = r.offset;
        b->timestamp[i] = r.timestamp;
        b->tstype[i] = r.tstype;
        if (r.timestamp >= 0 && b->ts_valid)
            set_bit(b->ts_valid, i);
        size_t cnt = header_count(&r);
        if (cnt > 0 && b->h_valid)
            set_bit(b->h_valid, i);
        for (size_t j = 0; j < cnt; j++, h++) {
            const char *name = NULL;
            const void *val = NULL;
            size_t nl = 0, vl = 0;
            header_at(&r, j, &name, &nl, &val, &vl); /* checked in pass 1 */
            varcol_put(&b->hkey, h, name, nl);
            varcol_put(&b->hvalue, h, val, vl);
        }
        b->hoffs[i + 1] = (int32_t)h;
    }
    *taken = rows;
    return b;
}

CflArrowBuilder *cfl_arrow_builder_from_records(rd_kafka_message_t **rkms, Py_ssize_t n, int with_headers,
                                                int peek_headers, Py_ssize_t *taken) {
    RecordSource src = {.rkms = rkms, .peek = peek_headers};
    if (with_headers &&
        (src.headers = PyMem_Malloc(sizeof(rd_kafka_headers_t *) * (size_t)(n > 0 ? n : 1))) == NULL)
        return (CflArrowBuilder *)PyErr_NoMemory();
    CflArrowBuilder *b = build(row_of_record, &src, n, taken);
    PyMem_Free(src.headers);
    return b;
}

CflArrowBuilder *cfl_arrow_builder_from_messages(PyObject *const *msgs, Py_ssize_t n, int with_headers,
                                                 Py_ssize_t *taken) {
    MessageSource src = {.msgs = msgs};
    if (with_headers && (src.headers = PyList_New(n)) == NULL)
        return NULL;
    for (Py_ssize_t i = 0; with_headers && i < n; i++) {
        PyObject *h = PyObject_CallMethod(msgs[i], "headers", NULL);
        if (h == NULL) {
            Py_DECREF(src.headers);
            return NULL;
        }
        PyList_SET_ITEM(src.headers, i, h);
    }
    CflArrowBuilder *b = build(row_of_message, &src, n, taken);
    Py_XDECREF(src.headers);
    return b;
}

/* ---- export ---------------------------------------------------------------------------- */

/* The batch's shape: node 0 is the struct of the eight columns; 8 (headers) holds 9 (the
 * entries struct), which holds 10 (key) and 11 (value). */
enum { N_ROOT, N_KEY, N_VALUE, N_TOPIC, N_PARTITION, N_OFFSET, N_TIMESTAMP, N_TSTYPE, N_HEADERS, N_ENTRIES,
       N_HKEY, N_HVALUE, N_NODES };
static const struct {
    const char *format, *name;
    int nullable, first_child, n_children;
} shape[N_NODES] = {
    [N_ROOT] = {"+s", "", 0, N_KEY, 8},
    [N_KEY] = {"z", "key", 1, 0, 0},
    [N_VALUE] = {"z", "value", 1, 0, 0},
    [N_TOPIC] = {"u", "topic", 0, 0, 0},
    [N_PARTITION] = {"i", "partition", 0, 0, 0},
    [N_OFFSET] = {"l", "offset", 0, 0, 0},
    [N_TIMESTAMP] = {"tsm:UTC", "timestamp", 1, 0, 0},
    [N_TSTYPE] = {"i", "timestamp_type", 0, 0, 0},
    [N_HEADERS] = {"+l", "headers", 1, N_ENTRIES, 1},
    [N_ENTRIES] = {"+s", "item", 0, N_HKEY, 2},
    [N_HKEY] = {"u", "key", 0, 0, 0},
    [N_HVALUE] = {"z", "value", 1, 0, 0},
};

/* One export: every node's struct, children pointers and buffer pointers, in one block that is
 * freed when the last node has been released (a consumer may move children out and release
 * them after the parent). */
typedef struct {
    cfl_refcnt live;
    CflArrowBuilder *data;
    struct ArrowArray nodes[N_NODES];
    struct ArrowArray *children[N_NODES];
    const void *buffers[N_NODES][3];
} ArrayBlock;

typedef struct {
    cfl_refcnt live;
    struct ArrowSchema nodes[N_NODES];
    struct ArrowSchema *children[N_NODES];
} SchemaBlock;

static void array_release(struct ArrowArray *a) {
    ArrayBlock *blk = (ArrayBlock *)a->private_data;
    for (int64_t i = 0; i < a->n_children; i++)
        if (a->children[i]->release != NULL)
            a->children[i]->release(a->children[i]);
    a->release = NULL;
    if (CFL_REF_DEC(&blk->live) == 0) {
        builder_decref(blk->data);
        free(blk);
    }
}

static void schema_release(struct ArrowSchema *s) {
    SchemaBlock *blk = (SchemaBlock *)s->private_data;
    for (int64_t i = 0; i < s->n_children; i++)
        if (s->children[i]->release != NULL)
            s->children[i]->release(s->children[i]);
    s->release = NULL;
    if (CFL_REF_DEC(&blk->live) == 0)
        free(blk);
}

static int export_schema(struct ArrowSchema *out) {
    SchemaBlock *blk = calloc(1, sizeof(*blk));
    if (blk == NULL)
        return -1;
    blk->live = N_NODES;
    for (int k = 0; k < N_NODES; k++) {
        struct ArrowSchema *s = k == N_ROOT ? out : &blk->nodes[k];
        memset(s, 0, sizeof(*s));
        s->format = shape[k].format;
        s->name = shape[k].name;
        s->flags = shape[k].nullable ? ARROW_FLAG_NULLABLE : 0;
        s->n_children = shape[k].n_children;
        s->children = shape[k].n_children ? &blk->children[shape[k].first_child] : NULL;
        s->release = schema_release;
        s->private_data = blk;
        if (k != N_ROOT)
            blk->children[k] = s;
    }
    return 0;
}

static void set_buffers(ArrayBlock *blk, int k, int64_t length, int64_t nulls, const void *b0, const void *b1,
                        const void *b2, int nbuf) {
    blk->buffers[k][0] = nulls ? b0 : NULL;
    blk->buffers[k][1] = b1;
    blk->buffers[k][2] = b2;
    blk->nodes[k].length = length;
    blk->nodes[k].null_count = nulls;
    blk->nodes[k].n_buffers = nbuf;
}

static int export_array(CflArrowBuilder *d, struct ArrowArray *out) {
    ArrayBlock *blk = calloc(1, sizeof(*blk));
    if (blk == NULL)
        return -1;
    blk->live = N_NODES;
    blk->data = d;
    CFL_REF_INC(&d->refs);
    int64_t n = d->n, nh = d->n_headers;
    set_buffers(blk, N_ROOT, n, 0, NULL, NULL, NULL, 1);
    set_buffers(blk, N_KEY, n, d->key.nulls, d->key.valid, d->key.offs, d->key.data, 3);
    set_buffers(blk, N_VALUE, n, d->value.nulls, d->value.valid, d->value.offs, d->value.data, 3);
    set_buffers(blk, N_TOPIC, n, 0, NULL, d->topic.offs, d->topic.data, 3);
    set_buffers(blk, N_PARTITION, n, 0, NULL, d->partition, NULL, 2);
    set_buffers(blk, N_OFFSET, n, 0, NULL, d->offset, NULL, 2);
    set_buffers(blk, N_TIMESTAMP, n, d->ts_nulls, d->ts_valid, d->timestamp, NULL, 2);
    set_buffers(blk, N_TSTYPE, n, 0, NULL, d->tstype, NULL, 2);
    set_buffers(blk, N_HEADERS, n, d->h_nulls, d->h_valid, d->hoffs, NULL, 2);
    set_buffers(blk, N_ENTRIES, nh, 0, NULL, NULL, NULL, 1);
    set_buffers(blk, N_HKEY, nh, 0, NULL, d->hkey.offs, d->hkey.data, 3);
    set_buffers(blk, N_HVALUE, nh, d->hvalue.nulls, d->hvalue.valid, d->hvalue.offs, d->hvalue.data, 3);
    for (int k = 0; k < N_NODES; k++) {
        struct ArrowArray *a = &blk->nodes[k];
        a->buffers = blk->buffers[k];
        a->n_children = shape[k].n_children;
        a->children = shape[k].n_children ? &blk->children[shape[k].first_child] : NULL;
        a->release = array_release;
        a->private_data = blk;
        blk->children[k] = a;
    }
    /* The root is the caller's struct: a copy of node 0, whose slot is then never released. */
    *out = blk->nodes[N_ROOT];
    blk->nodes[N_ROOT].release = NULL;
    return 0;
}

/* ---- ArrowBatch ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    CflArrowBuilder *data;
} ArrowBatchObject;

PyObject *cfl_arrow_batch_new(cfl_state *st, CflArrowBuilder *b) {
    ArrowBatchObject *self = PyObject_New(ArrowBatchObject, st->ArrowBatchType);
    if (self == NULL) {
        builder_decref(b);
        return NULL;
    }
    self->data = b;
    return (PyObject *)self;
}

static PyObject *ArrowBatch_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyErr_SetString(PyExc_TypeError, "ArrowBatch objects come from Consumer.consume_arrow()");
    return NULL;
}

static void ArrowBatch_dealloc(ArrowBatchObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    builder_decref(self->data);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static void schema_capsule_free(PyObject *cap) {
    struct ArrowSchema *s = PyCapsule_GetPointer(cap, "arrow_schema");
    if (s != NULL && s->release != NULL)
        s->release(s);
    free(s);
}

static void array_capsule_free(PyObject *cap) {
    struct ArrowArray *a = PyCapsule_GetPointer(cap, "arrow_array");
    if (a != NULL && a->release != NULL)
        a->release(a);
    free(a);
}

static PyObject *schema_capsule(void) {
    struct ArrowSchema *s = malloc(sizeof(*s));
    if (s == NULL || export_schema(s) < 0) {
        free(s);
        return PyErr_NoMemory();
    }
    PyObject *cap = PyCapsule_New(s, "arrow_schema", schema_capsule_free);
    if (cap == NULL) {
        s->release(s);
        free(s);
    }
    return cap;
}

static PyObject *ArrowBatch_arrow_c_schema(ArrowBatchObject *self, PyObject *unused) { return schema_capsule(); }

static PyObject *ArrowBatch_arrow_c_array(ArrowBatchObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"requested_schema", NULL};
    PyObject *requested = NULL;
    /* A requested schema is a hint the producer may ignore: the caller casts if it must. */
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:__arrow_c_array__", kwlist, &requested))
        return NULL;
    PyObject *scap = schema_capsule();
    if (scap == NULL)
        return NULL;
    struct ArrowArray *a = malloc(sizeof(*a));
    if (a == NULL || export_array(self->data, a) < 0) {
        free(a);
        Py_DECREF(scap);
        return PyErr_NoMemory();
    }
    PyObject *acap = PyCapsule_New(a, "arrow_array", array_capsule_free);
    if (acap == NULL) {
        a->release(a);
        free(a);
        Py_DECREF(scap);
        return NULL;
    }
    PyObject *pair = PyTuple_Pack(2, scap, acap);
    Py_DECREF(scap);
    Py_DECREF(acap);
    return pair;
}

static PyObject *ArrowBatch_to_pyarrow(ArrowBatchObject *self, PyObject *unused) {
    PyObject *pa = PyImport_ImportModule("pyarrow");
    if (pa == NULL)
        return NULL;
    PyObject *rb = PyObject_CallMethod(pa, "record_batch", "O", (PyObject *)self);
    Py_DECREF(pa);
    return rb;
}

static Py_ssize_t ArrowBatch_len(ArrowBatchObject *self) { return (Py_ssize_t)self->data->n; }

static PyObject *ArrowBatch_num_rows(ArrowBatchObject *self, void *unused) {
    return PyLong_FromLongLong(self->data->n);
}

static PyObject *ArrowBatch_column_names(ArrowBatchObject *self, void *unused) {
    PyObject *names = PyTuple_New(shape[N_ROOT].n_children);
    for (int i = 0; names != NULL && i < shape[N_ROOT].n_children; i++) {
        PyObject *s = PyUnicode_FromString(shape[N_KEY + i].name);
        if (s == NULL) {
            Py_CLEAR(names);
            break;
        }
        PyTuple_SET_ITEM(names, i, s);
    }
    return names;
}

static PyObject *ArrowBatch_repr(ArrowBatchObject *self) {
    return PyUnicode_FromFormat("<ArrowBatch rows=%lld headers=%lld>", (long long)self->data->n,
                                (long long)self->data->n_headers);
}

static PyObject *ArrowBatch_reduce(ArrowBatchObject *self, PyObject *unused) {
    PyErr_SetString(PyExc_TypeError, "ArrowBatch cannot be pickled: convert it with to_pyarrow() first");
    return NULL;
}

static PyMethodDef ArrowBatch_methods[] = {
    {"__arrow_c_array__", (PyCFunction)(void (*)(void))ArrowBatch_arrow_c_array, METH_VARARGS | METH_KEYWORDS,
     "__arrow_c_array__($self, /, requested_schema=None)\n--\n\nThe batch as a struct array through the Arrow "
     "PyCapsule interface: a (schema, array) pair of capsules. Each call exports the same buffers again."},
    {"__arrow_c_schema__", (PyCFunction)ArrowBatch_arrow_c_schema, METH_NOARGS,
     "__arrow_c_schema__($self, /)\n--\n\nThe batch's schema as an Arrow PyCapsule."},
    {"to_pyarrow", (PyCFunction)ArrowBatch_to_pyarrow, METH_NOARGS,
     "to_pyarrow($self, /)\n--\n\nThe batch as a pyarrow.RecordBatch, without copying.\n\n"
     ":returns: a pyarrow.RecordBatch sharing this batch's buffers.\n"
     ":raises ImportError: when pyarrow is not installed."},
    {"__reduce__", (PyCFunction)ArrowBatch_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyGetSetDef ArrowBatch_getset[] = {
    {"num_rows", (getter)ArrowBatch_num_rows, NULL, "Number of messages in the batch.", NULL},
    {"column_names", (getter)ArrowBatch_column_names, NULL,
     "The columns: key, value, topic, partition, offset, timestamp, timestamp_type, headers.", NULL},
    {NULL},
};

static PyType_Slot ArrowBatch_slots[] = {
    {Py_tp_doc, "Consumed messages as Arrow columns, from Consumer.consume_arrow().\n\n"
                "Columns: key (binary), value (binary), topic (string), partition (int32), offset (int64), "
                "timestamp (timestamp[ms, UTC], null when unavailable), timestamp_type (int32, a "
                "TIMESTAMP_* constant), headers (list<struct<key: string, value: binary>>, null when none).\n\n"
                "Any Arrow library takes it through the PyCapsule interface: pyarrow.record_batch(batch), "
                "polars.DataFrame(batch), or batch.to_pyarrow()."},
    {Py_tp_new, ArrowBatch_new},
    {Py_tp_dealloc, ArrowBatch_dealloc},
    {Py_tp_repr, ArrowBatch_repr},
    {Py_tp_methods, ArrowBatch_methods},
    {Py_tp_getset, ArrowBatch_getset},
    {Py_sq_length, ArrowBatch_len},
    {Py_mp_length, ArrowBatch_len},
    {0, NULL},
};

static PyType_Spec ArrowBatch_spec = {
    .name = CFL_QUALNAME("ArrowBatch"),
    .basicsize = sizeof(ArrowBatchObject),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = ArrowBatch_slots,
};

int cfl_arrow_init_type(PyObject *module, cfl_state *st) {
    st->ArrowBatchType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &ArrowBatch_spec, NULL);
    if (st->ArrowBatchType == NULL)
        return -1;
    return PyModule_AddType(module, st->ArrowBatchType);
}
