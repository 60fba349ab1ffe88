/* Client configuration. */
#include "conf.h"

#include "error.h"

/* The value as librdkafka's string form, or NULL with TypeError set. */
static PyObject *conf_value_str(PyObject *key, PyObject *value) {
    if (PyUnicode_Check(value))
        return Py_NewRef(value);
    if (PyBool_Check(value))
        return PyUnicode_FromString(value == Py_True ? "true" : "false");
    if (PyLong_Check(value) || PyFloat_Check(value))
        return PyObject_Str(value);
    PyErr_Format(PyExc_TypeError, "configuration property %R must be str, int, float or bool, not %.100s",
                 key, Py_TYPE(value)->tp_name);
    return NULL;
}

static int conf_set(cfl_state *st, rd_kafka_conf_t *conf, PyObject *key, PyObject *value) {
    const char *k = PyUnicode_AsUTF8(key);
    if (k == NULL)
        return -1;
    PyObject *vs = conf_value_str(key, value);
    if (vs == NULL)
        return -1;
    const char *v = PyUnicode_AsUTF8(vs);
    if (v == NULL) {
        Py_DECREF(vs);
        return -1;
    }
    char errstr[512];
    rd_kafka_conf_res_t res = rd_kafka_conf_set(conf, k, v, errstr, sizeof(errstr));
    Py_DECREF(vs);
    if (res != RD_KAFKA_CONF_OK) {
        cfl_raise(st, RD_KAFKA_RESP_ERR__INVALID_ARG, errstr);
        return -1;
    }
    return 0;
}

/* A callable (or None) for a Python-only key; stored in *slot. */
static int set_callable(PyObject **slot, const char *key, PyObject *value) {
    if (value != Py_None && !PyCallable_Check(value)) {
        PyErr_Format(PyExc_TypeError, "configuration property '%s' must be callable, not %.100s", key,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    Py_XSETREF(*slot, value == Py_None ? NULL : Py_NewRef(value));
    return 0;
}

static int parse_bool(PyObject *key, PyObject *value, int *out) {
    if (PyBool_Check(value) || PyLong_Check(value)) {
        *out = PyObject_IsTrue(value);
        return 0;
    }
    if (PyUnicode_Check(value)) {
        const char *s = PyUnicode_AsUTF8(value);
        if (s == NULL)
            return -1;
        if (!strcmp(s, "true") || !strcmp(s, "1")) {
            *out = 1;
            return 0;
        }
        if (!strcmp(s, "false") || !strcmp(s, "0")) {
            *out = 0;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "configuration property %R must be a bool, got %R", key, value);
    return -1;
}

/* One key: a Python-only one is kept on the handle, anything else goes to librdkafka. */
static int conf_item(Handle *h, cfl_state *st, rd_kafka_conf_t *conf, PyObject *key, PyObject *value) {
    if (!PyUnicode_Check(key)) {
        PyErr_Format(PyExc_TypeError, "configuration keys must be str, not %.100s", Py_TYPE(key)->tp_name);
        return -1;
    }
    const char *k = PyUnicode_AsUTF8(key);
    if (k == NULL)
        return -1;
    if (!strcmp(k, "error_cb"))
        return set_callable(&h->error_cb, k, value);
    if (!strcmp(k, "throttle_cb"))
        return set_callable(&h->throttle_cb, k, value);
    if (!strcmp(k, "stats_cb"))
        return set_callable(&h->stats_cb, k, value);
    if (!strcmp(k, "oauth_cb"))
        return set_callable(&h->oauth_cb, k, value);
    if (h->kind == RD_KAFKA_PRODUCER && (!strcmp(k, "on_delivery") || !strcmp(k, "dr_cb")))
        return set_callable(&h->on_delivery, k, value);
    if (h->kind == RD_KAFKA_CONSUMER && !strcmp(k, "on_commit"))
        return set_callable(&h->on_commit, k, value);
    if (h->kind == RD_KAFKA_CONSUMER && !strcmp(k, "consumer_timeout_ms")) {
        /* Idle time after which `for msg in consumer` stops (kafka-python's consumer_timeout_ms). */
        if (value == Py_None) {
            h->iter_timeout_ms = -1;
            return 0;
        }
        long ms = PyLong_Check(value) && !PyBool_Check(value) ? PyLong_AsLong(value) : -2;
        if (ms == -1 && PyErr_Occurred())
            return -1;
        if (ms == -2 || ms > INT_MAX) {
            PyErr_Format(PyExc_TypeError, "'consumer_timeout_ms' must be an int of milliseconds or None, got %R",
                         value);
            return -1;
        }
        h->iter_timeout_ms = ms < 0 ? -1 : (int)ms;
        return 0;
    }
    if (!strcmp(k, "logger")) {
        if (value != Py_None && !PyObject_HasAttrString(value, "log")) {
            PyErr_Format(PyExc_TypeError, "'logger' must be a logging.Logger (an object with a log() "
                                          "method), not %.100s", Py_TYPE(value)->tp_name);
            return -1;
        }
        Py_XSETREF(h->logger, value == Py_None ? NULL : Py_NewRef(value));
        return 0;
    }
    if (h->kind == RD_KAFKA_PRODUCER && !strcmp(k, "delivery.report.only.error"))
        /* Kept in Python-land: every reported message must release what it holds. */
        return parse_bool(key, value, &h->dr_only_error);
    if (!strcmp(k, "default.topic.config")) {
        if (!PyDict_Check(value)) {
            PyErr_Format(PyExc_TypeError, "'default.topic.config' must be a dict, not %.100s",
                         Py_TYPE(value)->tp_name);
            return -1;
        }
        PyObject *tk, *tv;
        Py_ssize_t pos = 0;
        while (PyDict_Next(value, &pos, &tk, &tv)) {
            if (!PyUnicode_Check(tk)) {
                PyErr_SetString(PyExc_TypeError, "'default.topic.config' keys must be str");
                return -1;
            }
            if (conf_set(st, conf, tk, tv) < 0)
                return -1;
        }
        return 0;
    }
    return conf_set(st, conf, key, value);
}

/* Consumer defaults that differ from librdkafka's, applied only where the user set nothing.
 * fetch.queue.backoff.ms: librdkafka pauses a partition's fetching for 1 s once its local queue
 * passes queued.min.messages; an application that drains the queue faster than that then sits
 * idle for most of each second. 20 ms keeps fetching paced without the stall. */
static const struct { const char *key, *value; } consumer_defaults[] = {
    {"fetch.queue.backoff.ms", "20"},
};

static int apply_defaults(rd_kafka_conf_t *conf, PyObject *given) {
    for (size_t i = 0; i < sizeof(consumer_defaults) / sizeof(consumer_defaults[0]); i++) {
        PyObject *key = PyUnicode_FromString(consumer_defaults[i].key);
        int set = key != NULL ? PyDict_Contains(given, key) : -1;
        Py_XDECREF(key);
        if (set < 0)
            return -1;
        if (!set)
            rd_kafka_conf_set(conf, consumer_defaults[i].key, consumer_defaults[i].value, NULL, 0);
    }
    return 0;
}

/* sasl.oauthbearer.metadata.authentication.type=aws_iam is served in Python (this librdkafka
 * rejects the value): confluent_kafka._oauthbearer.prepare_config(merged) checks the related
 * keys and swaps the marker for an oauth_cb that fetches tokens from AWS STS. */
static int conf_prepare_oauthbearer(PyObject *merged) {
    static const char marker[] = "sasl.oauthbearer.metadata.authentication.type";
    PyObject *v = PyDict_GetItemString(merged, marker), *nested;
    int found = v != NULL && PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, "aws_iam") == 0;
    if (!found && (nested = PyDict_GetItemString(merged, "default.topic.config")) != NULL &&
        PyDict_Check(nested) && (v = PyDict_GetItemString(nested, marker)) != NULL)
        found = PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, "aws_iam") == 0;
    if (!found)
        return 0;
    PyObject *mod = PyImport_ImportModule("confluent_kafka._oauthbearer");
    PyObject *res = mod != NULL ? PyObject_CallMethod(mod, "prepare_config", "O", merged) : NULL;
    Py_XDECREF(mod);
    if (res == NULL)
        return -1;
    Py_DECREF(res);
    return 0;
}

rd_kafka_conf_t *cfl_conf_build(Handle *h, cfl_state *st, PyObject *args, PyObject *kwargs) {
    PyObject *dict = NULL;
    if (!PyArg_ParseTuple(args, "|O:conf", &dict))
        return NULL;
    if (dict != NULL && dict != Py_None && !PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "configuration must be a dict, not %.100s", Py_TYPE(dict)->tp_name);
        return NULL;
    }
    PyObject *merged = (dict != NULL && dict != Py_None) ? PyDict_Copy(dict) : PyDict_New();
    if (merged == NULL)
        return NULL;
    if ((kwargs != NULL && PyDict_Update(merged, kwargs) < 0) || conf_prepare_oauthbearer(merged) < 0) {
        Py_DECREF(merged);
        return NULL;
    }
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(merged, &pos, &key, &value)) {
        if (conf_item(h, st, conf, key, value) < 0) {
            rd_kafka_conf_destroy(conf);
            Py_DECREF(merged);
            return NULL;
        }
    }
    if (h->kind == RD_KAFKA_CONSUMER && apply_defaults(conf, merged) < 0) {
        rd_kafka_conf_destroy(conf);
        Py_DECREF(merged);
        return NULL;
    }
    Py_DECREF(merged);
    if (h->oauth_cb != NULL) {
        char mech[64] = "";
        size_t sz = sizeof(mech);
        if (rd_kafka_conf_get(conf, "sasl.mechanisms", mech, &sz) == RD_KAFKA_CONF_OK &&
            !strcmp(mech, "OAUTHBEARER"))
            h->oauth_state = 1; /* the constructor waits for the first token */
    }
    cfl_handle_set_callbacks(h, conf);
    return conf;
}
