/* TopicPartition. */
#include "topic_partition.h"

#include "error.h"

static TopicPartitionObject *tp_alloc(PyTypeObject *type, PyObject *topic, int32_t partition,
                                      int64_t offset, PyObject *metadata, int32_t leader_epoch) {
    TopicPartitionObject *self = (TopicPartitionObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->topic = Py_NewRef(topic);
    self->metadata = Py_XNewRef(metadata);
    self->partition = partition;
    self->offset = offset;
    self->leader_epoch = leader_epoch;
    return self;
}

static PyObject *TopicPartition_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"topic", "partition", "offset", "metadata", "leader_epoch", NULL};
    PyObject *topic, *metadata = Py_None, *epoch_obj = Py_None;
    int partition = RD_KAFKA_PARTITION_UA;
    long long offset = RD_KAFKA_OFFSET_INVALID;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "U|iLOO:TopicPartition", kwlist, &topic, &partition,
                                     &offset, &metadata, &epoch_obj))
        return NULL;
    if (metadata != Py_None && !PyUnicode_Check(metadata)) {
        PyErr_Format(PyExc_TypeError, "metadata must be str or None, not %.100s", Py_TYPE(metadata)->tp_name);
        return NULL;
    }
    if (partition < RD_KAFKA_PARTITION_UA) {
        PyErr_Format(PyExc_ValueError, "partition must be >= -1, got %d", partition);
        return NULL;
    }
    long epoch = -1;
    if (epoch_obj != Py_None) {
        if (!PyLong_Check(epoch_obj)) {
            PyErr_Format(PyExc_TypeError, "leader_epoch must be an int or None, not %.100s",
                         Py_TYPE(epoch_obj)->tp_name);
            return NULL;
        }
        epoch = PyLong_AsLong(epoch_obj);
        if (epoch == -1 && PyErr_Occurred())
            return NULL;
        if (epoch < -1 || epoch > INT32_MAX) {
            PyErr_Format(PyExc_ValueError, "leader_epoch %ld is out of range", epoch);
            return NULL;
        }
    }
    return (PyObject *)tp_alloc(type, topic, partition, offset, metadata == Py_None ? NULL : metadata,
                                (int32_t)epoch);
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
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *TopicPartition_repr(TopicPartitionObject *self) {
    PyObject *epoch = self->leader_epoch >= 0 ? PyLong_FromLong(self->leader_epoch) : Py_NewRef(Py_None);
    if (epoch == NULL)
        return NULL;
    PyObject *r = PyUnicode_FromFormat("TopicPartition{topic=%U,partition=%d,offset=%lld,leader_epoch=%S,error=%R}",
                                       self->topic, (int)self->partition, (long long)self->offset, epoch,
                                       self->error ? self->error : Py_None);
    Py_DECREF(epoch);
    return r;
}

static Py_hash_t TopicPartition_hash(TopicPartitionObject *self) {
    PyObject *key = Py_BuildValue("(Oi)", self->topic, (int)self->partition);
    if (key == NULL)
        return -1;
    Py_hash_t h = PyObject_Hash(key);
    Py_DECREF(key);
    return h;
}

static PyObject *TopicPartition_richcompare(TopicPartitionObject *self, PyObject *other, int op) {
    if (Py_TYPE(other)->tp_richcompare != Py_TYPE(self)->tp_richcompare)
        Py_RETURN_NOTIMPLEMENTED;
    TopicPartitionObject *o = (TopicPartitionObject *)other;
    int r = PyUnicode_Compare(self->topic, o->topic);
    if (r == -1 && PyErr_Occurred())
        return NULL;
    if (r == 0)
        r = (self->partition > o->partition) - (self->partition < o->partition);
    Py_RETURN_RICHCOMPARE(r, 0, op);
}

static PyObject *TopicPartition_reduce(TopicPartitionObject *self, PyObject *unused) {
    return Py_BuildValue("(O(OiLON)O)", Py_TYPE(self), self->topic, (int)self->partition,
                         (long long)self->offset, self->metadata ? self->metadata : Py_None,
                         self->leader_epoch >= 0 ? PyLong_FromLong(self->leader_epoch) : Py_NewRef(Py_None),
                         self->error ? self->error : Py_None);
}

static PyObject *TopicPartition_setstate(TopicPartitionObject *self, PyObject *error) {
    cfl_state *st = cfl_state_of((PyObject *)self);
    if (st == NULL)
        return NULL;
    if (error != Py_None && !PyObject_TypeCheck(error, st->KafkaErrorType)) {
        PyErr_SetString(PyExc_TypeError, "TopicPartition state must be a KafkaError or None");
        return NULL;
    }
    Py_XSETREF(self->error, error == Py_None ? NULL : Py_NewRef(error));
    Py_RETURN_NONE;
}

/* Attribute access with type checks (topic is read-only: it is part of the hash). */
static PyObject *tp_get_topic(TopicPartitionObject *self, void *c) { return Py_NewRef(self->topic); }
static PyObject *tp_get_partition(TopicPartitionObject *self, void *c) { return PyLong_FromLong(self->partition); }
static PyObject *tp_get_offset(TopicPartitionObject *self, void *c) { return PyLong_FromLongLong(self->offset); }

static PyObject *tp_get_metadata(TopicPartitionObject *self, void *c) {
    return Py_NewRef(self->metadata ? self->metadata : Py_None);
}

static PyObject *tp_get_leader_epoch(TopicPartitionObject *self, void *c) {
    if (self->leader_epoch < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(self->leader_epoch);
}

static PyObject *tp_get_error(TopicPartitionObject *self, void *c) {
    return Py_NewRef(self->error ? self->error : Py_None);
}

static int no_delete(PyObject *v, const char *name) {
    if (v == NULL) {
        PyErr_Format(PyExc_AttributeError, "cannot delete TopicPartition.%s", name);
        return -1;
    }
    return 0;
}

static int int_attr(PyObject *v, const char *name, long long lo, long long hi, long long *out) {
    if (no_delete(v, name) < 0)
        return -1;
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "TopicPartition.%s must be an int, not %.100s", name, Py_TYPE(v)->tp_name);
        return -1;
    }
    long long x = PyLong_AsLongLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "TopicPartition.%s %lld is out of range", name, x);
        return -1;
    }
    *out = x;
    return 0;
}

static int tp_set_partition(TopicPartitionObject *self, PyObject *v, void *c) {
    long long x;
    if (int_attr(v, "partition", -1, INT32_MAX, &x) < 0)
        return -1;
    self->partition = (int32_t)x;
    return 0;
}

static int tp_set_offset(TopicPartitionObject *self, PyObject *v, void *c) {
    long long x;
    if (int_attr(v, "offset", INT64_MIN, INT64_MAX, &x) < 0)
        return -1;
    self->offset = x;
    return 0;
}

static int tp_set_leader_epoch(TopicPartitionObject *self, PyObject *v, void *c) {
    long long x = -1;
    if (v != Py_None && int_attr(v, "leader_epoch", -1, INT32_MAX, &x) < 0)
        return -1;
    self->leader_epoch = (int32_t)x;
    return 0;
}

static int tp_set_metadata(TopicPartitionObject *self, PyObject *v, void *c) {
    if (no_delete(v, "metadata") < 0)
        return -1;
    if (v != Py_None && !PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "TopicPartition.metadata must be str or None, not %.100s", Py_TYPE(v)->tp_name);
        return -1;
    }
    Py_XSETREF(self->metadata, v == Py_None ? NULL : Py_NewRef(v));
    return 0;
}

static int tp_set_error(TopicPartitionObject *self, PyObject *v, void *c) {
    if (no_delete(v, "error") < 0)
        return -1;
    PyObject *r = TopicPartition_setstate(self, v);
    Py_XDECREF(r);
    return r == NULL ? -1 : 0;
}

static PyGetSetDef TopicPartition_getset[] = {
    {"topic", (getter)tp_get_topic, NULL, "Topic name (str).", NULL},
    {"partition", (getter)tp_get_partition, (setter)tp_set_partition, "Partition number (-1: unset).", NULL},
    {"offset", (getter)tp_get_offset, (setter)tp_set_offset,
     "Offset, or one of the OFFSET_* logical offsets.", NULL},
    {"metadata", (getter)tp_get_metadata, (setter)tp_set_metadata, "Commit metadata (str or None).", NULL},
    {"leader_epoch", (getter)tp_get_leader_epoch, (setter)tp_set_leader_epoch,
     "Offset leader epoch, or None.", NULL},
    {"error", (getter)tp_get_error, (setter)tp_set_error, "A per-partition KafkaError, or None.", NULL},
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
    {Py_tp_dealloc, TopicPartition_dealloc},
    {Py_tp_traverse, TopicPartition_traverse},
    {Py_tp_clear, TopicPartition_clear},
    {Py_tp_repr, TopicPartition_repr},
    {Py_tp_hash, TopicPartition_hash},
    {Py_tp_richcompare, TopicPartition_richcompare},
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
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of TopicPartition, not %.100s", what,
                     Py_TYPE(seq)->tp_name);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    rd_kafka_topic_partition_list_t *c_parts = rd_kafka_topic_partition_list_new((int)(n > 0 ? n : 1));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyObject_TypeCheck(item, st->TopicPartitionType)) {
            PyErr_Format(PyExc_TypeError, "%s[%zd] must be a TopicPartition, not %.100s", what, i,
                         Py_TYPE(item)->tp_name);
            rd_kafka_topic_partition_list_destroy(c_parts);
            return NULL;
        }
        TopicPartitionObject *tp = (TopicPartitionObject *)item;
        const char *topic = PyUnicode_AsUTF8(tp->topic);
        if (topic == NULL) {
            rd_kafka_topic_partition_list_destroy(c_parts);
            return NULL;
        }
        rd_kafka_topic_partition_t *p = rd_kafka_topic_partition_list_add(c_parts, topic, tp->partition);
        p->offset = tp->offset;
        rd_kafka_topic_partition_set_leader_epoch(p, tp->leader_epoch);
        if (tp->metadata != NULL) {
            Py_ssize_t len;
            const char *md = PyUnicode_AsUTF8AndSize(tp->metadata, &len);
            if (md == NULL) {
                rd_kafka_topic_partition_list_destroy(c_parts);
                return NULL;
            }
            p->metadata = malloc((size_t)len > 0 ? (size_t)len : 1);
            memcpy(p->metadata, md, (size_t)len);
            p->metadata_size = (size_t)len;
        }
    }
    return c_parts;
}
