/* MockCluster. */
#include "mock.h"

#include <librdkafka/rdkafka_mock.h>

#include "error.h"
#include "handle.h"

#define CFL_MOCK_MAX_PARTITIONS 100000
#define CFL_MOCK_MAX_BROKERS 64

typedef struct {
    PyObject_HEAD
    rd_kafka_t *rk; /* the handle whose threads run the mock brokers */
    rd_kafka_mock_cluster_t *mcluster;
    cfl_state *st;
    unsigned fork_generation; /* a copy inherited through fork() has no broker threads */
} MockClusterObject;

static int inherited(MockClusterObject *self) { return self->fork_generation != cfl_fork_generation(); }

static int check_open(MockClusterObject *self) {
    if (self->mcluster == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "MockCluster has been closed");
        return -1;
    }
    /* Every mock call waits for a reply from the brokers' thread, which fork() did not copy. */
    if (inherited(self)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this MockCluster was created before os.fork() and cannot be used in the "
                        "child process (its broker threads do not survive fork); create a new "
                        "MockCluster in the child");
        return -1;
    }
    return 0;
}

static PyObject *mock_result(MockClusterObject *self, rd_kafka_resp_err_t err) {
    if (err)
        return cfl_raise(self->st, err, NULL);
    Py_RETURN_NONE;
}

static PyObject *MockCluster_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"num_brokers", NULL};
    int num_brokers = 3;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|i:MockCluster", kwlist, &num_brokers))
        return NULL;
    if (num_brokers < 1 || num_brokers > CFL_MOCK_MAX_BROKERS) {
        PyErr_Format(PyExc_ValueError, "num_brokers must be between 1 and %d, got %d", CFL_MOCK_MAX_BROKERS,
                     num_brokers);
        return NULL;
    }
    cfl_state *st = cfl_state_from_type(type);
    if (st == NULL)
        return NULL;
    MockClusterObject *self = (MockClusterObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->st = st;
    self->fork_generation = cfl_fork_generation();
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "log_level", "3", NULL, 0);
    Py_BEGIN_ALLOW_THREADS
    self->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
    if (self->rk != NULL)
        self->mcluster = rd_kafka_mock_cluster_new(self->rk, num_brokers);
    Py_END_ALLOW_THREADS
    if (self->rk == NULL) {
        rd_kafka_conf_destroy(conf);
        Py_DECREF(self);
        return cfl_raise(st, RD_KAFKA_RESP_ERR__INVALID_ARG, errstr);
    }
    if (self->mcluster == NULL) {
        Py_DECREF(self);
        return cfl_raise(st, RD_KAFKA_RESP_ERR__FAIL, "could not start the mock cluster");
    }
    return (PyObject *)self;
}

static void mock_close(MockClusterObject *self) {
    rd_kafka_mock_cluster_t *mc;
    rd_kafka_t *rk;
    /* Taken in the critical section every mock call runs in (see MOCK_LOCKED): a call on another
     * thread finishes before the cluster goes, and one after finds it closed. */
    Py_BEGIN_CRITICAL_SECTION(self);
    mc = self->mcluster;
    rk = self->rk;
    self->mcluster = NULL;
    self->rk = NULL;
    Py_END_CRITICAL_SECTION();
    if (inherited(self))
        return; /* tearing down would join threads that do not exist here: just forget it */
    Py_BEGIN_ALLOW_THREADS
    if (mc != NULL)
        rd_kafka_mock_cluster_destroy(mc);
    if (rk != NULL)
        rd_kafka_destroy(rk);
    Py_END_ALLOW_THREADS
}

static void MockCluster_dealloc(MockClusterObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    mock_close(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *MockCluster_close(MockClusterObject *self, PyObject *unused) {
    mock_close(self);
    Py_RETURN_NONE;
}

static PyObject *MockCluster_enter(MockClusterObject *self, PyObject *unused) {
    if (check_open(self) < 0)
        return NULL;
    return Py_NewRef(self);
}

static PyObject *MockCluster_exit(MockClusterObject *self, PyObject *args) {
    mock_close(self);
    Py_RETURN_FALSE;
}

static PyObject *MockCluster_bootstrap_servers(MockClusterObject *self, void *closure) {
    if (check_open(self) < 0)
        return NULL;
    return PyUnicode_FromString(rd_kafka_mock_cluster_bootstraps(self->mcluster));
}

static PyObject *MockCluster_create_topic(MockClusterObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"name", "partitions", "replication_factor", NULL};
    const char *topic;
    int partitions = 1, rf = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|ii:create_topic", kwlist, &topic, &partitions, &rf) ||
        check_open(self) < 0)
        return NULL;
    if (partitions < 1 || rf < 1) {
        PyErr_SetString(PyExc_ValueError, "partitions and replication_factor must be >= 1");
        return NULL;
    }
    /* The mock allocates every partition up front and aborts the process when that fails. */
    if (partitions > CFL_MOCK_MAX_PARTITIONS || rf > CFL_MOCK_MAX_BROKERS) {
        PyErr_Format(PyExc_ValueError, "a mock topic has at most %d partitions and a replication "
                     "factor of at most %d", CFL_MOCK_MAX_PARTITIONS, CFL_MOCK_MAX_BROKERS);
        return NULL;
    }
    return mock_result(self, rd_kafka_mock_topic_create(self->mcluster, topic, partitions, rf));
}

static PyObject *broker_call(MockClusterObject *self, PyObject *args, const char *fmt,
                             rd_kafka_resp_err_t (*fn)(rd_kafka_mock_cluster_t *, int32_t)) {
    int broker_id;
    if (!PyArg_ParseTuple(args, fmt, &broker_id) || check_open(self) < 0)
        return NULL;
    return mock_result(self, fn(self->mcluster, broker_id));
}

static PyObject *MockCluster_broker_down(MockClusterObject *self, PyObject *args) {
    return broker_call(self, args, "i:broker_down", rd_kafka_mock_broker_set_down);
}

static PyObject *MockCluster_broker_up(MockClusterObject *self, PyObject *args) {
    return broker_call(self, args, "i:broker_up", rd_kafka_mock_broker_set_up);
}

static PyObject *MockCluster_set_rtt(MockClusterObject *self, PyObject *args) {
    int broker_id, rtt_ms;
    if (!PyArg_ParseTuple(args, "ii:set_rtt", &broker_id, &rtt_ms) || check_open(self) < 0)
        return NULL;
    if (rtt_ms < 0) {
        PyErr_SetString(PyExc_ValueError, "rtt_ms must be >= 0");
        return NULL;
    }
    return mock_result(self, rd_kafka_mock_broker_set_rtt(self->mcluster, broker_id, rtt_ms));
}

static int api_key_arg(int api_key) {
    if (api_key < 0 || api_key > INT16_MAX) {
        PyErr_Format(PyExc_ValueError, "api_key %d is out of range", api_key);
        return -1;
    }
    return 0;
}

static PyObject *MockCluster_push_request_errors(MockClusterObject *self, PyObject *args) {
    int api_key;
    PyObject *errors;
    if (!PyArg_ParseTuple(args, "iO:push_request_errors", &api_key, &errors) || check_open(self) < 0)
        return NULL;
    if (!PyList_Check(errors) && !PyTuple_Check(errors)) {
        PyErr_SetString(PyExc_TypeError, "errors must be a list of error codes");
        return NULL;
    }
    if (api_key_arg(api_key) < 0)
        return NULL;
    /* A snapshot: converting an item may run Python code (__index__) that resizes a list. */
    PyObject *items = PySequence_Tuple(errors);
    if (items == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    rd_kafka_resp_err_t *codes = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(*codes));
    if (codes == NULL) {
        Py_DECREF(items);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int overflow = 0;
        long c = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(items, i), &overflow);
        if (c == -1 && PyErr_Occurred()) {
            PyMem_Free(codes);
            Py_DECREF(items);
            return NULL;
        }
        if (overflow || c < INT_MIN || c > INT_MAX) {
            PyErr_SetString(PyExc_OverflowError, "error code out of range");
            PyMem_Free(codes);
            Py_DECREF(items);
            return NULL;
        }
        codes[i] = (rd_kafka_resp_err_t)c;
    }
    Py_DECREF(items);
    /* The Python code run above may have closed the cluster. */
    if (check_open(self) < 0) {
        PyMem_Free(codes);
        return NULL;
    }
    rd_kafka_mock_push_request_errors_array(self->mcluster, (int16_t)api_key, (size_t)n, codes);
    PyMem_Free(codes);
    Py_RETURN_NONE;
}

static PyObject *MockCluster_clear_request_errors(MockClusterObject *self, PyObject *args) {
    int api_key;
    if (!PyArg_ParseTuple(args, "i:clear_request_errors", &api_key) || check_open(self) < 0 ||
        api_key_arg(api_key) < 0)
        return NULL;
    rd_kafka_mock_clear_request_errors(self->mcluster, (int16_t)api_key);
    Py_RETURN_NONE;
}

static PyObject *MockCluster_set_partition_leader(MockClusterObject *self, PyObject *args) {
    const char *topic;
    int partition, broker_id;
    if (!PyArg_ParseTuple(args, "sii:set_partition_leader", &topic, &partition, &broker_id) ||
        check_open(self) < 0)
        return NULL;
    /* librdkafka indexes the partition array with it unchecked (a negative one writes out of
     * bounds in the brokers' thread), and auto-creates a missing topic with partition + 1
     * partitions (aborting the process when that allocation fails). */
    if (partition < 0 || partition >= CFL_MOCK_MAX_PARTITIONS) {
        PyErr_Format(PyExc_ValueError, "partition must be between 0 and %d, got %d",
                     CFL_MOCK_MAX_PARTITIONS - 1, partition);
        return NULL;
    }
    if (broker_id < -1) {
        PyErr_Format(PyExc_ValueError, "broker_id must be a broker id, or -1 for no leader; got %d",
                     broker_id);
        return NULL;
    }
    return mock_result(self, rd_kafka_mock_partition_set_leader(self->mcluster, topic, partition, broker_id));
}

static PyObject *MockCluster_set_coordinator(MockClusterObject *self, PyObject *args) {
    const char *key_type, *key;
    int broker_id;
    if (!PyArg_ParseTuple(args, "ssi:set_coordinator", &key_type, &key, &broker_id) || check_open(self) < 0)
        return NULL;
    if (strcmp(key_type, "group") != 0 && strcmp(key_type, "transaction") != 0) {
        PyErr_SetString(PyExc_ValueError, "key_type must be 'group' or 'transaction'");
        return NULL;
    }
    return mock_result(self, rd_kafka_mock_coordinator_set(self->mcluster, key_type, key, broker_id));
}

/* Every call that reaches the cluster runs in a critical section on it, so close() on another
 * thread cannot destroy the cluster under it. The mock's own calls wait for its brokers' thread,
 * which runs no Python code, so they hold it only briefly. */
#define MOCK_LOCKED(fn, params, args)                                                             \
    static PyObject *fn##_locked params {                                                         \
        PyObject *r;                                                                              \
        Py_BEGIN_CRITICAL_SECTION(self);                                                          \
        r = fn args;                                                                              \
        Py_END_CRITICAL_SECTION();                                                                \
        return r;                                                                                 \
    }
#define MOCK_LOCKED_VA(fn) MOCK_LOCKED(fn, (MockClusterObject *self, PyObject *args), (self, args))
MOCK_LOCKED(MockCluster_create_topic, (MockClusterObject *self, PyObject *args, PyObject *kwargs),
            (self, args, kwargs))
MOCK_LOCKED_VA(MockCluster_broker_down)
MOCK_LOCKED_VA(MockCluster_broker_up)
MOCK_LOCKED_VA(MockCluster_set_rtt)
MOCK_LOCKED_VA(MockCluster_push_request_errors)
MOCK_LOCKED_VA(MockCluster_clear_request_errors)
MOCK_LOCKED_VA(MockCluster_set_partition_leader)
MOCK_LOCKED_VA(MockCluster_set_coordinator)
MOCK_LOCKED(MockCluster_bootstrap_servers, (MockClusterObject *self, void *closure), (self, closure))

static PyMethodDef MockCluster_methods[] = {
    {"create_topic", (PyCFunction)(void (*)(void))MockCluster_create_topic_locked, METH_VARARGS | METH_KEYWORDS,
     "create_topic($self, /, name, partitions=1, replication_factor=1)\n--\n\n"
     "Create a topic on the mock brokers (topics a client asks for are also created on first use).\n\n"
     ":param name: the topic.\n:param partitions: how many partitions.\n"
     ":param replication_factor: how many replicas of each partition.\n"
     ":raises ~confluent_kafka.KafkaException: when the mock cluster refuses (e.g. the topic exists).\n"
     ":raises RuntimeError: when the cluster is closed."},
    {"broker_down", (PyCFunction)MockCluster_broker_down_locked, METH_VARARGS,
     "broker_down($self, broker_id, /)\n--\n\nDisconnect the broker's clients and refuse new connections.\n\n"
     ":param broker_id: the broker (1 to num_brokers).\n:raises ~confluent_kafka.KafkaException: for an unknown broker."},
    {"broker_up", (PyCFunction)MockCluster_broker_up_locked, METH_VARARGS, "broker_up($self, broker_id, /)\n--\n\nAccept connections on a broker taken down by broker_down() again.\n\n"
     ":param broker_id: the broker (1 to num_brokers).\n:raises ~confluent_kafka.KafkaException: for an unknown broker."},
    {"set_rtt", (PyCFunction)MockCluster_set_rtt_locked, METH_VARARGS, "set_rtt($self, broker_id, rtt_ms, /)\n--\n\nDelay every response of the broker by rtt_ms milliseconds (0 for none).\n\n"
     ":param broker_id: the broker (1 to num_brokers).\n:param rtt_ms: the delay in milliseconds.\n"
     ":raises ~confluent_kafka.KafkaException: for an unknown broker."},
    {"push_request_errors", (PyCFunction)MockCluster_push_request_errors_locked, METH_VARARGS,
     "push_request_errors($self, api_key, errors, /)\n--\n\nThe next requests of this Kafka API key fail with these error codes, in order.\n\n"
     ":param api_key: the Kafka protocol API key (e.g. 0 for Produce).\n"
     ":param errors: a sequence of error codes (ints or KafkaError constants)."},
    {"clear_request_errors", (PyCFunction)MockCluster_clear_request_errors_locked, METH_VARARGS,
     "clear_request_errors($self, api_key, /)\n--\n\nDrop the errors still queued for this Kafka API key.\n\n"
     ":param api_key: the Kafka protocol API key."},
    {"set_partition_leader", (PyCFunction)MockCluster_set_partition_leader_locked, METH_VARARGS,
     "set_partition_leader($self, topic, partition, broker_id, /)\n--\n\nMove the partition's leadership to the broker (-1: no leader).\n\n"
     ":param topic: the topic.\n:param partition: the partition.\n:param broker_id: the new leader, or -1.\n"
     ":raises ~confluent_kafka.KafkaException: for an unknown topic, partition or broker."},
    {"set_coordinator", (PyCFunction)MockCluster_set_coordinator_locked, METH_VARARGS,
     "set_coordinator($self, key_type, key, broker_id, /)\n--\n\nMake the broker the coordinator of a group or transactional id.\n\n"
     ":param key_type: 'group' or 'transaction'.\n:param key: the group id or transactional id.\n"
     ":param broker_id: the coordinator.\n:raises ~confluent_kafka.KafkaException: for an unknown broker."},
    {"close", (PyCFunction)MockCluster_close, METH_NOARGS, "close($self, /)\n--\n\nStop the brokers. Idempotent; the clients still connected lose their brokers."},
    {"__enter__", (PyCFunction)MockCluster_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)MockCluster_exit, METH_VARARGS, NULL},
    {NULL},
};

static PyGetSetDef MockCluster_getset[] = {
    {"bootstrap_servers", (getter)MockCluster_bootstrap_servers_locked, NULL,
     "The brokers' loopback addresses, for bootstrap.servers.", NULL},
    {NULL},
};

static PyType_Slot MockCluster_slots[] = {
    {Py_tp_doc, "MockCluster(num_brokers=3)\n\nAn in-process Kafka cluster on loopback, for tests: "
                "no broker to install, and faults on demand."},
    {Py_tp_new, MockCluster_new},
    {Py_tp_dealloc, MockCluster_dealloc},
    {Py_tp_methods, MockCluster_methods},
    {Py_tp_getset, MockCluster_getset},
    {0, NULL},
};

static PyType_Spec MockCluster_spec = {
    .name = CFL_QUALNAME("MockCluster"),
    .basicsize = sizeof(MockClusterObject),
    .flags = Py_TPFLAGS_DEFAULT,
    .slots = MockCluster_slots,
};

int cfl_mock_init_type(PyObject *module, cfl_state *st) {
    st->MockClusterType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &MockCluster_spec, NULL);
    if (st->MockClusterType == NULL)
        return -1;
    return PyModule_AddType(module, st->MockClusterType);
}
