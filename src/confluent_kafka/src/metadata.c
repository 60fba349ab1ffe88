/* Cluster metadata. */
#include "metadata.h"

#include "error.h"

/* Set obj.name = value, stealing value. */
static int set_attr(PyObject *obj, const char *name, PyObject *value) {
    if (value == NULL)
        return -1;
    int rc = PyObject_SetAttrString(obj, name, value);
    Py_DECREF(value);
    return rc;
}

static PyObject *new_of(PyObject *module, const char *cls) {
    PyObject *type = PyObject_GetAttrString(module, cls);
    if (type == NULL)
        return NULL;
    PyObject *obj = PyObject_CallNoArgs(type);
    Py_DECREF(type);
    return obj;
}

static PyObject *int_list(const int32_t *v, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list != NULL && i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *partition_of(cfl_state *st, PyObject *mod, const rd_kafka_metadata_partition_t *p) {
    PyObject *o = new_of(mod, "PartitionMetadata");
    if (o == NULL || set_attr(o, "id", PyLong_FromLong(p->id)) < 0 ||
        set_attr(o, "leader", PyLong_FromLong(p->leader)) < 0 ||
        set_attr(o, "replicas", int_list(p->replicas, p->replica_cnt)) < 0 ||
        set_attr(o, "isrs", int_list(p->isrs, p->isr_cnt)) < 0 ||
        set_attr(o, "error", cfl_error_or_none(st, p->err, NULL)) < 0)
        Py_CLEAR(o);
    return o;
}

static PyObject *topic_of(cfl_state *st, PyObject *mod, const rd_kafka_metadata_topic_t *t) {
    PyObject *o = new_of(mod, "TopicMetadata");
    PyObject *parts = o ? PyDict_New() : NULL;
    for (int i = 0; parts != NULL && i < t->partition_cnt; i++) {
        PyObject *p = partition_of(st, mod, &t->partitions[i]);
        PyObject *k = p ? PyLong_FromLong(t->partitions[i].id) : NULL;
        if (k == NULL || PyDict_SetItem(parts, k, p) < 0)
            Py_CLEAR(parts);
        Py_XDECREF(k);
        Py_XDECREF(p);
    }
    if (parts == NULL || set_attr(o, "topic", PyUnicode_FromString(t->topic)) < 0 ||
        set_attr(o, "partitions", parts) < 0 || set_attr(o, "error", cfl_error_or_none(st, t->err, NULL)) < 0)
        Py_CLEAR(o);
    return o;
}

static PyObject *broker_of(PyObject *mod, const rd_kafka_metadata_broker_t *b) {
    PyObject *o = new_of(mod, "BrokerMetadata");
    if (o == NULL || set_attr(o, "id", PyLong_FromLong(b->id)) < 0 ||
        set_attr(o, "host", PyUnicode_FromString(b->host)) < 0 || set_attr(o, "port", PyLong_FromLong(b->port)) < 0)
        Py_CLEAR(o);
    return o;
}

static PyObject *cluster_of(Handle *h, PyObject *mod, const struct rd_kafka_metadata *md) {
    cfl_state *st = h->st;
    PyObject *o = new_of(mod, "ClusterMetadata");
    PyObject *brokers = o ? PyDict_New() : NULL, *topics = brokers ? PyDict_New() : NULL;
    for (int i = 0; topics != NULL && i < md->broker_cnt; i++) {
        PyObject *b = broker_of(mod, &md->brokers[i]);
        PyObject *k = b ? PyLong_FromLong(md->brokers[i].id) : NULL;
        if (k == NULL || PyDict_SetItem(brokers, k, b) < 0)
            Py_CLEAR(topics);
        Py_XDECREF(k);
        Py_XDECREF(b);
    }
    for (int i = 0; topics != NULL && i < md->topic_cnt; i++) {
        PyObject *t = topic_of(st, mod, &md->topics[i]);
        if (t == NULL || PyDict_SetItemString(topics, md->topics[i].topic, t) < 0)
            Py_CLEAR(topics);
        Py_XDECREF(t);
    }
    if (topics == NULL) {
        Py_XDECREF(brokers);
        Py_XDECREF(o);
        return NULL;
    }
    char *cluster_id = rd_kafka_clusterid(h->rk, 0);
    PyObject *cid = cluster_id ? PyUnicode_FromString(cluster_id) : Py_NewRef(Py_None);
    if (cluster_id != NULL)
        rd_kafka_mem_free(h->rk, cluster_id);
    if (set_attr(o, "cluster_id", cid) < 0 ||
        set_attr(o, "controller_id", PyLong_FromLong(rd_kafka_controllerid(h->rk, 0))) < 0 ||
        set_attr(o, "brokers", brokers) < 0 || set_attr(o, "topics", topics) < 0 ||
        set_attr(o, "orig_broker_id", PyLong_FromLong(md->orig_broker_id)) < 0 ||
        set_attr(o, "orig_broker_name", PyUnicode_FromString(md->orig_broker_name ? md->orig_broker_name : "")) < 0)
        Py_CLEAR(o);
    return o;
}

PyObject *cfl_list_topics(Handle *h, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"topic", "timeout", NULL};
    PyObject *topic = Py_None, *t = NULL;
    int timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:list_topics", kwlist, &topic, &t) ||
        cfl_timeout_ms(t, &timeout_ms) < 0 || cfl_handle_check_common(h) < 0)
        return NULL;
    if (topic != Py_None && !PyUnicode_Check(topic)) {
        PyErr_Format(PyExc_TypeError, "topic must be str or None, not %.100s", Py_TYPE(topic)->tp_name);
        return NULL;
    }
    PyObject *mod = cfl_cached_import(&h->st->metadata_module, "confluent_kafka.admin._metadata", NULL);
    if (mod == NULL)
        return NULL;
    rd_kafka_topic_t *rkt = NULL;
    if (topic != Py_None) {
        const char *name = PyUnicode_AsUTF8(topic);
        if (name == NULL)
            return NULL;
        if ((rkt = rd_kafka_topic_new(h->rk, name, NULL)) == NULL)
            return cfl_raise(h->st, rd_kafka_last_error(), NULL);
    }
    const struct rd_kafka_metadata *md = NULL;
    rd_kafka_resp_err_t err;
    CFL_BLOCKING(h, err = rd_kafka_metadata(h->rk, rkt == NULL, rkt, &md, timeout_ms));
    if (rkt != NULL)
        rd_kafka_topic_destroy(rkt);
    if (err)
        return cfl_raise_prefixed(h->st, err, "Failed to get metadata");
    PyObject *result = cluster_of(h, mod, md);
    rd_kafka_metadata_destroy(md);
    return result;
}
