/* TopicPartition. */
#include "topic_partition.h"

#include "error.h"

static TopicPartitionObject *tp_alloc(PyTypeObject *type, PyObject *topic, int partition, long long offset,
                                      PyObject *metadata, int leader_epoch) {
    TopicPartitionObject *self = (TopicPartitionObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    CFL_TSAN_FRESH(self);
    self->topic = Py_NewRef(topic);
    self->metadata = Py_XNewRef(metadata);
    self->partition = partition;
    self->offset = offset;
    self->leader_epoch = leader_epoch;
    return self;
}

/* Every field at one moment, the objects as new references (NULL when unset): __init__ or
 * __setstate__ on another thread may replace them, and partition/offset are writable. */
typedef struct {
    PyObject *topic, *metadata, *error;
    long long offset;
    int partition, leader_epoch;
} TpFields;

static void tp_fields_get(TopicPartitionObject *self, TpFields *f) {
    Py_BEGIN_CRITICAL_SECTION(self);
    f->topic = Py_XNewRef(self->topic);
    f->metadata = Py_XNewRef(self->metadata);
    f->error = Py_XNewRef(self->error);
    f->offset = self->offset;
    f->partition = self->partition;
    f->leader_epoch = self->leader_epoch;
    Py_END_CRITICAL_SECTION();
}

static void tp_fields_release(TpFields *f) {
    Py_XDECREF(f->topic);
    Py_XDECREF(f->metadata);
    Py_XDECREF(f->error);
}

static PyObject *TopicPartition_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    /* Every field zero (no topic) until __init__ runs; the arguments are __init__'s. */
    PyObject *self = type->tp_alloc(type, 0);
    if (self != NULL)
        CFL_TSAN_FRESH(self);
    return self;
}

/* metadata: a str without NUL characters, or None (this package also takes None, which the
 * signature documents; upstream's parser refuses it). */
static int metadata_arg(PyObject *obj, PyObject **out) {
    *out = NULL;
    if (obj == NULL || obj == Py_None)
        return 0;
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "argument 4 must be str, not %.50s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *s;
    if (!PyArg_Parse(obj, "s", &s))
        return -1;
    *out = PyUnicode_FromString(s);
    return *out == NULL ? -1 : 0;
}

static int TopicPartition_init(TopicPartitionObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"topic", "partition", "offset", "metadata", "leader_epoch", NULL};
    const char *topic;
    PyObject *metadata_obj = NULL, *epoch_obj = NULL;
    int partition = RD_KAFKA_PARTITION_UA, epoch = -1;
    long long offset = RD_KAFKA_OFFSET_INVALID;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|iLOO", kwlist, &topic, &partition, &offset, &metadata_obj,
                                     &epoch_obj))
        return -1;
    if (epoch_obj != NULL && epoch_obj != Py_None && !PyArg_Parse(epoch_obj, "i", &epoch))
        return -1;
    PyObject *metadata, *topic_str;
    if (metadata_arg(metadata_obj, &metadata) < 0)
        return -1;
    if ((topic_str = PyUnicode_FromString(topic)) == NULL) {
        Py_XDECREF(metadata);
        return -1;
    }
    PyObject *old_topic, *old_metadata, *old_error;
    Py_BEGIN_CRITICAL_SECTION(self);
    old_topic = self->topic, self->topic = topic_str;
    old_metadata = self->metadata, self->metadata = metadata;
    old_error = self->error, self->error = NULL;
    self->partition = partition;
    self->offset = offset;
    self->leader_epoch = epoch < 0 ? -1 : epoch;
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old_topic);
    Py_XDECREF(old_metadata);
    Py_XDECREF(old_error);
    return 0;
}

static int TopicPartition_traverse(TopicPartitionObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->topic);
    Py_VISIT(self->metadata);
    Py_VISIT(self->error);
    return 0;
}

static int TopicPartition_clear(TopicPartitionObject *self) {
    Py_CLEAR(self->topic);
    Py_CLEAR(self->metadata);
    Py_CLEAR(self->error);
    return 0;
}

static void TopicPartition_dealloc(TopicPartitionObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    TopicPartition_clear(self);
    CFL_TSAN_FRESH(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *empty_str(void) { return PyUnicode_FromStringAndSize(NULL, 0); }

static PyObject *TopicPartition_repr(TopicPartitionObject *self) {
    TpFields f;
    tp_fields_get(self, &f);
    PyObject *epoch = f.leader_epoch >= 0 ? PyLong_FromLong(f.leader_epoch) : Py_NewRef(Py_None);
    PyObject *r = epoch == NULL ? NULL
                  : PyUnicode_FromFormat("TopicPartition{topic=%S,partition=%d,offset=%lld,leader_epoch=%S,error=%R}",
                                         f.topic ? f.topic : Py_None, f.partition, f.offset, epoch,
                                         f.error ? f.error : Py_None);
    Py_XDECREF(epoch);
    tp_fields_release(&f);
    return r;
}

/* hash(topic) ^ partition, as upstream: equal (topic, partition) pairs hash alike. */
static Py_hash_t TopicPartition_hash(TopicPartitionObject *self) {
    TpFields f;
    tp_fields_get(self, &f);
    Py_hash_t h = 0;
    if (f.topic != NULL && (h = PyObject_Hash(f.topic)) == -1) {
        tp_fields_release(&f);
        return -1;
    }
    h ^= (Py_hash_t)f.partition;
    tp_fields_release(&f);
    return h == -1 ? -2 : h;
}

/* Equality and order by (topic, partition); the offset and the rest are not compared. Against
 * another type: NotImplemented (upstream raises NotImplementedError). */
static PyObject *TopicPartition_richcompare(TopicPartitionObject *self, PyObject *other, int op) {
    cfl_state *st = cfl_state_of((PyObject *)self);
    if (st == NULL)
        return NULL;
    if (!PyObject_TypeCheck(other, st->TopicPartitionType))
        Py_RETURN_NOTIMPLEMENTED;
    TpFields fa, fb;
    tp_fields_get(self, &fa);
    tp_fields_get((TopicPartitionObject *)other, &fb);
    PyObject *a = fa.topic ? Py_NewRef(fa.topic) : empty_str();
    PyObject *b = fb.topic ? Py_NewRef(fb.topic) : empty_str();
    int r = a && b ? PyUnicode_Compare(a, b) : -1;
    Py_XDECREF(a);
    Py_XDECREF(b);
    int pa = fa.partition, pb = fb.partition;
    tp_fields_release(&fa);
    tp_fields_release(&fb);
    if (r == -1 && PyErr_Occurred())
        return NULL;
    if (r == 0)
        r = (pa > pb) - (pa < pb);
    Py_RETURN_RICHCOMPARE(r, 0, op);
}

static PyObject *tp_reduce(cfl_state *st, const TpFields *f);

/* Pickles as a plain TopicPartition(topic, partition, offset[, metadata[, leader_epoch]]) call,
 * which upstream's class (that cannot pickle its own objects) also loads; a leader epoch without
 * metadata goes by keyword, through functools.partial. A per-partition error travels as the
 * state, for __setstate__. */
static PyObject *TopicPartition_reduce(TopicPartitionObject *self, PyObject *unused) {
    cfl_state *st = cfl_state_of((PyObject *)self);
    if (st == NULL)
        return NULL;
    TpFields f;
    tp_fields_get(self, &f);
    PyObject *r = tp_reduce(st, &f);
    tp_fields_release(&f);
    return r;
}

static PyObject *tp_reduce(cfl_state *st, const TpFields *f) {
    if (f->topic == NULL) {
        PyErr_SetString(PyExc_TypeError, "cannot pickle a TopicPartition whose __init__ did not run");
        return NULL;
    }
    PyObject *cls = Py_NewRef((PyObject *)st->TopicPartitionType), *args;
    if (f->metadata != NULL && f->leader_epoch >= 0)
        args = Py_BuildValue("(OiLOi)", f->topic, f->partition, f->offset, f->metadata, f->leader_epoch);
    else if (f->metadata != NULL)
        args = Py_BuildValue("(OiLO)", f->topic, f->partition, f->offset, f->metadata);
    else
        args = Py_BuildValue("(OiL)", f->topic, f->partition, f->offset);
    if (args != NULL && f->metadata == NULL && f->leader_epoch >= 0) {
        PyObject *functools = PyImport_ImportModule("functools");
        PyObject *partial = functools ? PyObject_GetAttrString(functools, "partial") : NULL;
        PyObject *kw = partial ? Py_BuildValue("{si}", "leader_epoch", f->leader_epoch) : NULL;
        PyObject *pos = kw ? PyTuple_Pack(1, cls) : NULL;
        Py_SETREF(cls, pos ? PyObject_Call(partial, pos, kw) : NULL);
        Py_XDECREF(pos);
        Py_XDECREF(kw);
        Py_XDECREF(partial);
        Py_XDECREF(functools);
    }
    if (cls == NULL || args == NULL) {
        Py_XDECREF(cls);
        Py_XDECREF(args);
        return NULL;
    }
    if (f->error != NULL)
        return Py_BuildValue("(NNO)", cls, args, f->error);
    return Py_BuildValue("(NN)", cls, args);
}

/* The state of this package's pickles: the per-partition error (a KafkaError) or None. */
static PyObject *TopicPartition_setstate(TopicPartitionObject *self, PyObject *error) {
    cfl_state *st = cfl_state_of((PyObject *)self);
    if (st == NULL)
        return NULL;
    if (error != Py_None && !PyObject_TypeCheck(error, st->KafkaErrorType)) {
        PyErr_Format(PyExc_TypeError, "TopicPartition state must be a KafkaError or None, not %.100s",
                     Py_TYPE(error)->tp_name);
        return NULL;
    }
    PyObject *old;
    Py_BEGIN_CRITICAL_SECTION(self);
    old = self->error;
    self->error = error == Py_None ? NULL : Py_NewRef(error);
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

static PyObject *tp_get_leader_epoch(TopicPartitionObject *self, void *c) {
    int epoch;
    Py_BEGIN_CRITICAL_SECTION(self);
    epoch = self->leader_epoch;
    Py_END_CRITICAL_SECTION();
    if (epoch < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(epoch);
}

static int tp_set_leader_epoch(TopicPartitionObject *self, PyObject *v, void *c) {
    PyErr_SetString(PyExc_AttributeError, "attribute 'leader_epoch' of 'cimpl.TopicPartition' objects is not writable");
    return -1;
}

/* partition and offset are plain writable ints; topic, metadata and error are read-only. */
static PyMemberDef TopicPartition_members[] = {
    {"topic", T_OBJECT, offsetof(TopicPartitionObject, topic), READONLY, "Topic name (str)."},
    {"partition", T_INT, offsetof(TopicPartitionObject, partition), 0, "Partition number (-1: unset)."},
    {"offset", T_LONGLONG, offsetof(TopicPartitionObject, offset), 0,
     "Offset, or one of the OFFSET_* logical offsets."},
    {"metadata", T_OBJECT, offsetof(TopicPartitionObject, metadata), READONLY, "Commit metadata (str or None)."},
    {"error", T_OBJECT, offsetof(TopicPartitionObject, error), READONLY, "A per-partition KafkaError, or None."},
    {NULL},
};

static PyGetSetDef TopicPartition_getset[] = {
    {"leader_epoch", (getter)tp_get_leader_epoch, (setter)tp_set_leader_epoch, "Offset leader epoch, or None.",
     NULL},
    {NULL},
};

static PyMethodDef TopicPartition_methods[] = {
    {"__reduce__", (PyCFunction)TopicPartition_reduce, METH_NOARGS, NULL},
    {"__setstate__", (PyCFunction)TopicPartition_setstate, METH_O, NULL},
    {NULL},
};

static PyType_Slot TopicPartition_slots[] = {
    {Py_tp_doc, "TopicPartition(topic, partition=-1, offset=OFFSET_INVALID, metadata=None, leader_epoch=None)\n\n"
                "A topic partition, with an offset where one applies."},
    {Py_tp_new, TopicPartition_new},
    {Py_tp_init, TopicPartition_init},
    {Py_tp_dealloc, TopicPartition_dealloc},
    {Py_tp_traverse, TopicPartition_traverse},
    {Py_tp_clear, TopicPartition_clear},
    {Py_tp_repr, TopicPartition_repr},
    {Py_tp_hash, TopicPartition_hash},
    {Py_tp_richcompare, TopicPartition_richcompare},
    {Py_tp_members, TopicPartition_members},
    {Py_tp_getset, TopicPartition_getset},
    {Py_tp_methods, TopicPartition_methods},
    {0, NULL},
};

static PyType_Spec TopicPartition_spec = {
    .name = CFL_QUALNAME("TopicPartition"),
    .basicsize = sizeof(TopicPartitionObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = TopicPartition_slots,
};

int cfl_topic_partition_init_type(PyObject *module, cfl_state *st) {
    st->TopicPartitionType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &TopicPartition_spec, NULL);
    if (st->TopicPartitionType == NULL)
        return -1;
    return PyModule_AddType(module, st->TopicPartitionType);
}

PyObject *cfl_tp_list_from_c(cfl_state *st, const rd_kafka_topic_partition_list_t *c_parts) {
    PyObject *list = PyList_New(c_parts ? c_parts->cnt : 0);
    if (list == NULL || c_parts == NULL)
        return list;
    for (int i = 0; i < c_parts->cnt; i++) {
        const rd_kafka_topic_partition_t *p = &c_parts->elems[i];
        PyObject *topic = PyUnicode_FromString(p->topic);
        PyObject *metadata = NULL;
        if (topic != NULL && p->metadata != NULL && p->metadata_size > 0)
            metadata = PyUnicode_DecodeUTF8(p->metadata, (Py_ssize_t)p->metadata_size, "replace");
        TopicPartitionObject *tp = NULL;
        if (topic != NULL && (metadata != NULL || p->metadata == NULL || p->metadata_size == 0))
            tp = tp_alloc(st->TopicPartitionType, topic, p->partition, p->offset, metadata,
                          rd_kafka_topic_partition_get_leader_epoch(p));
        Py_XDECREF(topic);
        Py_XDECREF(metadata);
        if (tp != NULL && p->err != RD_KAFKA_RESP_ERR_NO_ERROR &&
            (tp->error = cfl_error_new(st, p->err, NULL)) == NULL)
            Py_CLEAR(tp);
        if (tp == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, (PyObject *)tp);
    }
    return list;
}

rd_kafka_topic_partition_list_t *cfl_tp_list_to_c(cfl_state *st, PyObject *seq, const char *what) {
    (void)what;
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "requires list of TopicPartition");
        return NULL;
    }
    PyObject *items = cfl_seq_snapshot(seq); /* a list another thread may resize: its items now */
    if (items == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    rd_kafka_topic_partition_list_t *c_parts = rd_kafka_topic_partition_list_new((int)(n > 0 ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(items, i);
        TpFields f = {0};
        if (PyObject_TypeCheck(item, st->TopicPartitionType))
            tp_fields_get((TopicPartitionObject *)item, &f);
        if (f.topic == NULL) {
            PyErr_SetString(PyExc_TypeError, "expected cimpl.TopicPartition");
            goto fail;
        }
        const char *topic = PyUnicode_AsUTF8(f.topic);
        if (topic == NULL)
            goto fail;
        rd_kafka_topic_partition_t *p = rd_kafka_topic_partition_list_add(c_parts, topic, f.partition);
        p->offset = f.offset;
        rd_kafka_topic_partition_set_leader_epoch(p, f.leader_epoch);
        if (f.metadata != NULL) {
            Py_ssize_t len;
            const char *md = PyUnicode_AsUTF8AndSize(f.metadata, &len);
            if (md == NULL)
                goto fail;
            p->metadata = malloc((size_t)len > 0 ? (size_t)len : 1);
            memcpy(p->metadata, md, (size_t)len);
            p->metadata_size = (size_t)len;
        }
        tp_fields_release(&f);
        continue;
    fail:
        tp_fields_release(&f);
        Py_DECREF(items);
        rd_kafka_topic_partition_list_destroy(c_parts);
        return NULL;
    }
    Py_DECREF(items);
    return c_parts;
}
