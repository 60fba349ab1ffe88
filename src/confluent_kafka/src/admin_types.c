/* The admin request and id types of confluent_kafka.cimpl, and the admin int constants.
 *
 *   NewTopic(topic, num_partitions=-1, replication_factor=-1, replica_assignment=None, config=None)
 *   NewPartitions(topic, new_total_count, replica_assignment=None)
 *   Uuid(most_significant_bits, least_significant_bits)
 *
 * NewTopic and NewPartitions keep what they are given; AdminClient checks it when the request
 * is made. An optional argument that was not given stays unset (NULL), which reads as None but
 * is told apart from an explicit None: upstream rejects an explicit None replica_assignment at
 * request time and an explicit None config at construction. They order by topic, then by
 * partition count; comparing with another type raises NotImplementedError, as upstream does.
 * Unlike upstream the three types pickle (by their constructor arguments). */
#include "admin.h"

/* ---- shared ---------------------------------------------------------------------------- */

/* Order two values by (topic, count) for rich comparison. */
static PyObject *order_by(PyObject *a_topic, int a_cnt, PyObject *b_topic, int b_cnt, int op) {
    int r = PyUnicode_Compare(a_topic, b_topic);
    if (r == -1 && PyErr_Occurred())
        return NULL;
    if (r == 0)
        r = a_cnt < b_cnt ? -1 : (a_cnt > b_cnt ? 1 : 0);
    Py_RETURN_RICHCOMPARE(r, 0, op);
}

/* ---- NewTopic -------------------------------------------------------------------------- */

static int NewTopic_init(NewTopicObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"topic", "num_partitions", "replication_factor", "replica_assignment", "config", NULL};
    const char *topic;
    int num_partitions = -1, replication_factor = -1;
    PyObject *assignment = NULL, *config = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|iiOO", kwlist, &topic, &num_partitions, &replication_factor,
                                     &assignment, &config))
        return -1;
    if (config != NULL && !PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "config must be a dict of strings");
        return -1;
    }
    PyObject *name = PyUnicode_FromString(topic);
    if (name == NULL)
        return -1;
    PyObject *old[3];
    Py_BEGIN_CRITICAL_SECTION(self);
    old[0] = self->topic, self->topic = name;
    self->num_partitions = num_partitions;
    self->replication_factor = replication_factor;
    old[1] = self->replica_assignment, self->replica_assignment = Py_XNewRef(assignment);
    old[2] = self->config, self->config = Py_XNewRef(config);
    Py_END_CRITICAL_SECTION();
    for (int i = 0; i < 3; i++)
        Py_XDECREF(old[i]);
    return 0;
}

static PyObject *NewTopic_repr_unlocked(NewTopicObject *self) {
    if (self->topic == NULL)
        return PyUnicode_FromString("NewTopic()");
    if (self->num_partitions == -1)
        return PyUnicode_FromFormat("NewTopic(topic=%U)", self->topic);
    return PyUnicode_FromFormat("NewTopic(topic=%U,num_partitions=%d)", self->topic, self->num_partitions);
}

/* hash(topic) ^ num_partitions (just hash(topic) for the default -1), as upstream hashes. */
static Py_hash_t mix_hash(PyObject *topic, int count) {
    Py_hash_t h = topic != NULL ? PyObject_Hash(topic) : 0;
    if (h == -1 && PyErr_Occurred())
        return -1;
    if (count != -1)
        h ^= (Py_hash_t)count;
    return h == -1 ? -2 : h;
}

static Py_hash_t NewTopic_hash_unlocked(NewTopicObject *self) { return mix_hash(self->topic, self->num_partitions); }

static PyObject *NewTopic_richcompare_unlocked(NewTopicObject *self, PyObject *other, int op) {
    if (Py_TYPE(other) != Py_TYPE(self)) {
        PyErr_SetNone(PyExc_NotImplementedError);
        return NULL;
    }
    NewTopicObject *b = (NewTopicObject *)other;
    if (self->topic == NULL || b->topic == NULL) {
        PyErr_SetString(PyExc_TypeError, "NewTopic was not initialized");
        return NULL;
    }
    return order_by(self->topic, self->num_partitions, b->topic, b->num_partitions, op);
}

static PyObject *NewTopic_reduce_unlocked(NewTopicObject *self, PyObject *unused) {
    if (self->topic == NULL) {
        PyErr_SetString(PyExc_TypeError, "NewTopic was not initialized");
        return NULL;
    }
    PyObject *kwargs = PyDict_New();
    if (kwargs == NULL)
        return NULL;
    if ((self->replica_assignment != NULL &&
         PyDict_SetItemString(kwargs, "replica_assignment", self->replica_assignment) < 0) ||
        (self->config != NULL && PyDict_SetItemString(kwargs, "config", self->config) < 0)) {
        Py_DECREF(kwargs);
        return NULL;
    }
    /* (functools.partial-free) rebuild: the type called with positional topic and counts, then
     * the optional attributes restored through __setstate__-less attribute assignment. */
    return Py_BuildValue("O(Oii)N", (PyObject *)Py_TYPE(self), self->topic, self->num_partitions,
                         self->replication_factor, kwargs);
}

/* The readers run in a critical section on the object (on both, to compare two): __init__,
 * __setstate__ or an attribute store on another thread may replace the fields they read. Nothing
 * in them runs Python code (the topic is a str made here). */
static PyObject *NewTopic_repr(NewTopicObject *self) {
    PyObject *r;
    Py_BEGIN_CRITICAL_SECTION(self);
    r = NewTopic_repr_unlocked(self);
    Py_END_CRITICAL_SECTION();
    return r;
}

static Py_hash_t NewTopic_hash(NewTopicObject *self) {
    Py_hash_t r;
    Py_BEGIN_CRITICAL_SECTION(self);
    r = NewTopic_hash_unlocked(self);
    Py_END_CRITICAL_SECTION();
    return r;
}

static PyObject *NewTopic_reduce(NewTopicObject *self, PyObject *unused) {
    PyObject *r;
    Py_BEGIN_CRITICAL_SECTION(self);
    r = NewTopic_reduce_unlocked(self, unused);
    Py_END_CRITICAL_SECTION();
    return r;
}

static PyObject *NewTopic_richcompare(NewTopicObject *self, PyObject *other, int op) {
    PyObject *r;
    Py_BEGIN_CRITICAL_SECTION2(self, other);
    r = NewTopic_richcompare_unlocked(self, other, op);
    Py_END_CRITICAL_SECTION2();
    return r;
}

static PyObject *NewTopic_setstate(NewTopicObject *self, PyObject *state) {
    if (!PyDict_Check(state)) {
        PyErr_SetString(PyExc_TypeError, "NewTopic state must be a dict");
        return NULL;
    }
    PyObject *assignment = cfl_dict_get_string(state, "replica_assignment");
    PyObject *config = cfl_dict_get_string(state, "config");
    PyObject *old_assignment = NULL, *old_config = NULL;
    Py_BEGIN_CRITICAL_SECTION(self);
    if (assignment != NULL) {
        old_assignment = self->replica_assignment;
        self->replica_assignment = assignment; /* the reference taken above */
    }
    if (config != NULL) {
        old_config = self->config;
        self->config = config;
    }
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old_assignment);
    Py_XDECREF(old_config);
    Py_RETURN_NONE;
}

static int NewTopic_traverse(NewTopicObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->replica_assignment);
    Py_VISIT(self->config);
    return 0;
}

static int NewTopic_clear(NewTopicObject *self) {
    Py_CLEAR(self->replica_assignment);
    Py_CLEAR(self->config);
    return 0;
}

static void NewTopic_dealloc(NewTopicObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    NewTopic_clear(self);
    Py_CLEAR(self->topic);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyMemberDef NewTopic_members[] = {
    {"topic", T_OBJECT, offsetof(NewTopicObject, topic), READONLY, "The topic name."},
    {"num_partitions", T_INT, offsetof(NewTopicObject, num_partitions), 0,
     "Number of partitions, or -1 for the broker's default."},
    {"replication_factor", T_INT, offsetof(NewTopicObject, replication_factor), 0,
     "Replicas per partition, or -1 for the broker's default (or when replica_assignment is used)."},
    {"replica_assignment", T_OBJECT, offsetof(NewTopicObject, replica_assignment), 0,
     "Broker ids for each partition: a list of lists, the first id the preferred leader."},
    {"config", T_OBJECT, offsetof(NewTopicObject, config), 0, "Topic configuration overrides (dict)."},
    {NULL},
};

static PyMethodDef NewTopic_methods[] = {
    {"__reduce__", (PyCFunction)NewTopic_reduce, METH_NOARGS, NULL},
    {"__setstate__", (PyCFunction)NewTopic_setstate, METH_O, NULL},
    {NULL},
};

static PyType_Slot NewTopic_slots[] = {
    {Py_tp_doc, "NewTopic(topic, num_partitions=-1, replication_factor=-1, replica_assignment=None, config=None)\n"
                "--\n\n"
                "A topic to create with AdminClient.create_topics().\n\n"
                ":param str topic: The topic name.\n"
                ":param int num_partitions: Number of partitions, or -1 for the broker's default.\n"
                ":param int replication_factor: Replicas per partition, or -1 for the broker's default "
                "(must be -1 when replica_assignment is given).\n"
                ":param list replica_assignment: For each partition, the list of broker ids holding it.\n"
                ":param dict config: Topic configuration; values are sent as their str()."},
    {Py_tp_init, NewTopic_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, NewTopic_dealloc},
    {Py_tp_traverse, NewTopic_traverse},
    {Py_tp_clear, NewTopic_clear},
    {Py_tp_repr, NewTopic_repr},
    {Py_tp_str, NewTopic_repr},
    {Py_tp_hash, NewTopic_hash},
    {Py_tp_richcompare, NewTopic_richcompare},
    {Py_tp_members, NewTopic_members},
    {Py_tp_methods, NewTopic_methods},
    {0, NULL},
};

static PyType_Spec NewTopic_spec = {
    .name = CFL_QUALNAME("NewTopic"),
    .basicsize = sizeof(NewTopicObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = NewTopic_slots,
};

/* ---- NewPartitions --------------------------------------------------------------------- */

static int NewPartitions_init(NewPartitionsObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"topic", "new_total_count", "replica_assignment", NULL};
    const char *topic;
    int count;
    PyObject *assignment = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "si|O", kwlist, &topic, &count, &assignment))
        return -1;
    PyObject *name = PyUnicode_FromString(topic);
    if (name == NULL)
        return -1;
    PyObject *old_topic, *old_assignment;
    Py_BEGIN_CRITICAL_SECTION(self);
    old_topic = self->topic, self->topic = name;
    self->new_total_count = count;
    old_assignment = self->replica_assignment, self->replica_assignment = Py_XNewRef(assignment);
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old_topic);
    Py_XDECREF(old_assignment);
    return 0;
}

static PyObject *NewPartitions_repr_unlocked(NewPartitionsObject *self) {
    if (self->topic == NULL)
        return PyUnicode_FromString("NewPartitions()");
    return PyUnicode_FromFormat("NewPartitions(topic=%U,new_total_count=%d)", self->topic, self->new_total_count);
}

static Py_hash_t NewPartitions_hash_unlocked(NewPartitionsObject *self) {
    return mix_hash(self->topic, self->new_total_count);
}

static PyObject *NewPartitions_richcompare_unlocked(NewPartitionsObject *self, PyObject *other, int op) {
    if (Py_TYPE(other) != Py_TYPE(self)) {
        PyErr_SetNone(PyExc_NotImplementedError);
        return NULL;
    }
    NewPartitionsObject *b = (NewPartitionsObject *)other;
    if (self->topic == NULL || b->topic == NULL) {
        PyErr_SetString(PyExc_TypeError, "NewPartitions was not initialized");
        return NULL;
    }
    return order_by(self->topic, self->new_total_count, b->topic, b->new_total_count, op);
}

static PyObject *NewPartitions_reduce_unlocked(NewPartitionsObject *self, PyObject *unused) {
    if (self->topic == NULL) {
        PyErr_SetString(PyExc_TypeError, "NewPartitions was not initialized");
        return NULL;
    }
    if (self->replica_assignment != NULL)
        return Py_BuildValue("O(OiO)", (PyObject *)Py_TYPE(self), self->topic, self->new_total_count,
                             self->replica_assignment);
    return Py_BuildValue("O(Oi)", (PyObject *)Py_TYPE(self), self->topic, self->new_total_count);
}

static PyObject *NewPartitions_repr(NewPartitionsObject *self) {
    PyObject *r;
    Py_BEGIN_CRITICAL_SECTION(self);
    r = NewPartitions_repr_unlocked(self);
    Py_END_CRITICAL_SECTION();
    return r;
}

static Py_hash_t NewPartitions_hash(NewPartitionsObject *self) {
    Py_hash_t r;
    Py_BEGIN_CRITICAL_SECTION(self);
    r = NewPartitions_hash_unlocked(self);
    Py_END_CRITICAL_SECTION();
    return r;
}

static PyObject *NewPartitions_reduce(NewPartitionsObject *self, PyObject *unused) {
    PyObject *r;
    Py_BEGIN_CRITICAL_SECTION(self);
    r = NewPartitions_reduce_unlocked(self, unused);
    Py_END_CRITICAL_SECTION();
    return r;
}

static PyObject *NewPartitions_richcompare(NewPartitionsObject *self, PyObject *other, int op) {
    PyObject *r;
    Py_BEGIN_CRITICAL_SECTION2(self, other);
    r = NewPartitions_richcompare_unlocked(self, other, op);
    Py_END_CRITICAL_SECTION2();
    return r;
}

static int NewPartitions_traverse(NewPartitionsObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->replica_assignment);
    return 0;
}

static int NewPartitions_clear(NewPartitionsObject *self) {
    Py_CLEAR(self->replica_assignment);
    return 0;
}

static void NewPartitions_dealloc(NewPartitionsObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    NewPartitions_clear(self);
    Py_CLEAR(self->topic);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyMemberDef NewPartitions_members[] = {
    {"topic", T_OBJECT, offsetof(NewPartitionsObject, topic), READONLY, "The topic name."},
    {"new_total_count", T_INT, offsetof(NewPartitionsObject, new_total_count), 0,
     "The topic's partition count after the change."},
    {"replica_assignment", T_OBJECT, offsetof(NewPartitionsObject, replica_assignment), 0,
     "Broker ids for each new partition: a list of lists."},
    {NULL},
};

static PyMethodDef NewPartitions_methods[] = {
    {"__reduce__", (PyCFunction)NewPartitions_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot NewPartitions_slots[] = {
    {Py_tp_doc, "NewPartitions(topic, new_total_count, replica_assignment=None)\n--\n\n"
                "Grow a topic with AdminClient.create_partitions().\n\n"
                ":param str topic: The topic name.\n"
                ":param int new_total_count: The partition count after the change.\n"
                ":param list replica_assignment: For each new partition, the list of broker ids holding it."},
    {Py_tp_init, NewPartitions_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, NewPartitions_dealloc},
    {Py_tp_traverse, NewPartitions_traverse},
    {Py_tp_clear, NewPartitions_clear},
    {Py_tp_repr, NewPartitions_repr},
    {Py_tp_str, NewPartitions_repr},
    {Py_tp_hash, NewPartitions_hash},
    {Py_tp_richcompare, NewPartitions_richcompare},
    {Py_tp_members, NewPartitions_members},
    {Py_tp_methods, NewPartitions_methods},
    {0, NULL},
};

static PyType_Spec NewPartitions_spec = {
    .name = CFL_QUALNAME("NewPartitions"),
    .basicsize = sizeof(NewPartitionsObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = NewPartitions_slots,
};

/* ---- Uuid ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int64_t msb;
    int64_t lsb;
} UuidObject;

static int Uuid_init(UuidObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"most_significant_bits", "least_significant_bits", NULL};
    long long msb, lsb;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LL", kwlist, &msb, &lsb))
        return -1;
    self->msb = (int64_t)msb;
    self->lsb = (int64_t)lsb;
    return 0;
}

/* Kafka's form: the 16 bytes (big-endian msb, then lsb) in URL-unsafe base64 without padding. */
static PyObject *Uuid_str(UuidObject *self) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned char raw[18] = {0};
    for (int i = 0; i < 8; i++) {
        raw[i] = (unsigned char)((uint64_t)self->msb >> (56 - 8 * i));
        raw[8 + i] = (unsigned char)((uint64_t)self->lsb >> (56 - 8 * i));
    }
    char out[24];
    int o = 0;
    for (int i = 0; i < 18; i += 3) {
        uint32_t v = ((uint32_t)raw[i] << 16) | ((uint32_t)raw[i + 1] << 8) | raw[i + 2];
        out[o++] = alphabet[(v >> 18) & 63];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
        out[o++] = alphabet[v & 63];
    }
    /* 16 bytes encode to 22 significant characters. */
    return PyUnicode_FromStringAndSize(out, 22);
}

static Py_hash_t Uuid_hash(UuidObject *self) {
    Py_hash_t h = (Py_hash_t)(self->msb ^ (self->lsb * 31));
    return h == -1 ? -2 : h;
}

static PyObject *Uuid_msb(UuidObject *self, PyObject *unused) { return PyLong_FromLongLong(self->msb); }

static PyObject *Uuid_lsb(UuidObject *self, PyObject *unused) { return PyLong_FromLongLong(self->lsb); }

static PyObject *Uuid_reduce(UuidObject *self, PyObject *unused) {
    return Py_BuildValue("O(LL)", (PyObject *)Py_TYPE(self), (long long)self->msb, (long long)self->lsb);
}

static void Uuid_dealloc(UuidObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyMethodDef Uuid_methods[] = {
    {"get_most_significant_bits", (PyCFunction)Uuid_msb, METH_NOARGS,
     "get_most_significant_bits($self, /)\n--\n\nThe high 64 bits, as a signed int."},
    {"get_least_significant_bits", (PyCFunction)Uuid_lsb, METH_NOARGS,
     "get_least_significant_bits($self, /)\n--\n\nThe low 64 bits, as a signed int."},
    {"__reduce__", (PyCFunction)Uuid_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot Uuid_slots[] = {
    {Py_tp_doc, "Uuid(most_significant_bits, least_significant_bits)\n--\n\n"
                "A 128-bit id (topic ids), shown in Kafka's base64 form.\n\n"
                ":param int most_significant_bits: The high 64 bits, as a signed int.\n"
                ":param int least_significant_bits: The low 64 bits, as a signed int."},
    {Py_tp_init, Uuid_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, Uuid_dealloc},
    {Py_tp_repr, Uuid_str},
    {Py_tp_str, Uuid_str},
    {Py_tp_hash, Uuid_hash},
    {Py_tp_methods, Uuid_methods},
    {0, NULL},
};

static PyType_Spec Uuid_spec = {
    .name = CFL_QUALNAME("Uuid"),
    .basicsize = sizeof(UuidObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = Uuid_slots,
};

/* ---- constants ------------------------------------------------------------------------- */

static const struct {
    const char *name;
    long value;
} admin_constants[] = {
    {"ACL_OPERATION_UNKNOWN", RD_KAFKA_ACL_OPERATION_UNKNOWN},
    {"ACL_OPERATION_ANY", RD_KAFKA_ACL_OPERATION_ANY},
    {"ACL_OPERATION_ALL", RD_KAFKA_ACL_OPERATION_ALL},
    {"ACL_OPERATION_READ", RD_KAFKA_ACL_OPERATION_READ},
    {"ACL_OPERATION_WRITE", RD_KAFKA_ACL_OPERATION_WRITE},
    {"ACL_OPERATION_CREATE", RD_KAFKA_ACL_OPERATION_CREATE},
    {"ACL_OPERATION_DELETE", RD_KAFKA_ACL_OPERATION_DELETE},
    {"ACL_OPERATION_ALTER", RD_KAFKA_ACL_OPERATION_ALTER},
    {"ACL_OPERATION_DESCRIBE", RD_KAFKA_ACL_OPERATION_DESCRIBE},
    {"ACL_OPERATION_CLUSTER_ACTION", RD_KAFKA_ACL_OPERATION_CLUSTER_ACTION},
    {"ACL_OPERATION_DESCRIBE_CONFIGS", RD_KAFKA_ACL_OPERATION_DESCRIBE_CONFIGS},
    {"ACL_OPERATION_ALTER_CONFIGS", RD_KAFKA_ACL_OPERATION_ALTER_CONFIGS},
    {"ACL_OPERATION_IDEMPOTENT_WRITE", RD_KAFKA_ACL_OPERATION_IDEMPOTENT_WRITE},
    {"ACL_PERMISSION_TYPE_UNKNOWN", RD_KAFKA_ACL_PERMISSION_TYPE_UNKNOWN},
    {"ACL_PERMISSION_TYPE_ANY", RD_KAFKA_ACL_PERMISSION_TYPE_ANY},
    {"ACL_PERMISSION_TYPE_DENY", RD_KAFKA_ACL_PERMISSION_TYPE_DENY},
    {"ACL_PERMISSION_TYPE_ALLOW", RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW},
    {"ALTER_CONFIG_OP_TYPE_SET", RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET},
    {"ALTER_CONFIG_OP_TYPE_DELETE", RD_KAFKA_ALTER_CONFIG_OP_TYPE_DELETE},
    {"ALTER_CONFIG_OP_TYPE_APPEND", RD_KAFKA_ALTER_CONFIG_OP_TYPE_APPEND},
    {"ALTER_CONFIG_OP_TYPE_SUBTRACT", RD_KAFKA_ALTER_CONFIG_OP_TYPE_SUBTRACT},
    {"CONFIG_SOURCE_UNKNOWN_CONFIG", RD_KAFKA_CONFIG_SOURCE_UNKNOWN_CONFIG},
    {"CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG", RD_KAFKA_CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG},
    {"CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG", RD_KAFKA_CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG},
    {"CONFIG_SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG", RD_KAFKA_CONFIG_SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG},
    {"CONFIG_SOURCE_STATIC_BROKER_CONFIG", RD_KAFKA_CONFIG_SOURCE_STATIC_BROKER_CONFIG},
    {"CONFIG_SOURCE_DEFAULT_CONFIG", RD_KAFKA_CONFIG_SOURCE_DEFAULT_CONFIG},
    {"CONFIG_SOURCE_GROUP_CONFIG", 8}, /* RD_KAFKA_CONFIG_SOURCE_GROUP_CONFIG (librdkafka >= 2.11) */
    {"CONSUMER_GROUP_STATE_UNKNOWN", RD_KAFKA_CONSUMER_GROUP_STATE_UNKNOWN},
    {"CONSUMER_GROUP_STATE_PREPARING_REBALANCE", RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE},
    {"CONSUMER_GROUP_STATE_COMPLETING_REBALANCE", RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE},
    {"CONSUMER_GROUP_STATE_STABLE", RD_KAFKA_CONSUMER_GROUP_STATE_STABLE},
    {"CONSUMER_GROUP_STATE_DEAD", RD_KAFKA_CONSUMER_GROUP_STATE_DEAD},
    {"CONSUMER_GROUP_STATE_EMPTY", RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY},
    {"CONSUMER_GROUP_TYPE_UNKNOWN", 0},  /* RD_KAFKA_CONSUMER_GROUP_TYPE_UNKNOWN (librdkafka >= 2.6) */
    {"CONSUMER_GROUP_TYPE_CONSUMER", 1}, /* RD_KAFKA_CONSUMER_GROUP_TYPE_CONSUMER */
    {"CONSUMER_GROUP_TYPE_CLASSIC", 2},  /* RD_KAFKA_CONSUMER_GROUP_TYPE_CLASSIC */
    {"ELECTION_TYPE_PREFERRED", RD_KAFKA_ELECTION_TYPE_PREFERRED},
    {"ELECTION_TYPE_UNCLEAN", RD_KAFKA_ELECTION_TYPE_UNCLEAN},
    {"ISOLATION_LEVEL_READ_UNCOMMITTED", RD_KAFKA_ISOLATION_LEVEL_READ_UNCOMMITTED},
    {"ISOLATION_LEVEL_READ_COMMITTED", RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED},
    {"OFFSET_SPEC_MAX_TIMESTAMP", RD_KAFKA_OFFSET_SPEC_MAX_TIMESTAMP},
    {"OFFSET_SPEC_EARLIEST", RD_KAFKA_OFFSET_SPEC_EARLIEST},
    {"OFFSET_SPEC_LATEST", RD_KAFKA_OFFSET_SPEC_LATEST},
    {"RESOURCE_UNKNOWN", RD_KAFKA_RESOURCE_UNKNOWN},
    {"RESOURCE_ANY", RD_KAFKA_RESOURCE_ANY},
    {"RESOURCE_TOPIC", RD_KAFKA_RESOURCE_TOPIC},
    {"RESOURCE_GROUP", RD_KAFKA_RESOURCE_GROUP},
    {"RESOURCE_BROKER", RD_KAFKA_RESOURCE_BROKER},
    {"RESOURCE_TRANSACTIONAL_ID", RD_KAFKA_RESOURCE_TRANSACTIONAL_ID},
    {"RESOURCE_PATTERN_UNKNOWN", RD_KAFKA_RESOURCE_PATTERN_UNKNOWN},
    {"RESOURCE_PATTERN_ANY", RD_KAFKA_RESOURCE_PATTERN_ANY},
    {"RESOURCE_PATTERN_MATCH", RD_KAFKA_RESOURCE_PATTERN_MATCH},
    {"RESOURCE_PATTERN_LITERAL", RD_KAFKA_RESOURCE_PATTERN_LITERAL},
    {"RESOURCE_PATTERN_PREFIXED", RD_KAFKA_RESOURCE_PATTERN_PREFIXED},
    {"SCRAM_MECHANISM_UNKNOWN", RD_KAFKA_SCRAM_MECHANISM_UNKNOWN},
    {"SCRAM_MECHANISM_SHA_256", RD_KAFKA_SCRAM_MECHANISM_SHA_256},
    {"SCRAM_MECHANISM_SHA_512", RD_KAFKA_SCRAM_MECHANISM_SHA_512},
};

int cfl_admin_types_init(PyObject *module) {
    PyType_Spec *specs[] = {&NewTopic_spec, &NewPartitions_spec, &Uuid_spec};
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        PyTypeObject *tp = (PyTypeObject *)PyType_FromModuleAndSpec(module, specs[i], NULL);
        if (tp == NULL)
            return -1;
        int rc = PyModule_AddType(module, tp);
        Py_DECREF(tp);
        if (rc < 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof(admin_constants) / sizeof(admin_constants[0]); i++)
        if (PyModule_AddIntConstant(module, admin_constants[i].name, admin_constants[i].value) < 0)
            return -1;
    return 0;
}
