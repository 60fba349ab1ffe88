/* Client configuration, taken the way confluent-kafka 2.x takes it: keys and values are turned
 * into text with str(), None unsets a property, the Python-only keys (callbacks, logger,
 * default.topic.config) are checked here, and what librdkafka refuses raises
 * KafkaException(_INVALID_ARG) with librdkafka's own words. */
#include "conf.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "error.h"

/* Keys whose None value is passed on as the text "None" rather than unsetting the property, as
 * confluent-kafka 2.x does for them. */
static int none_is_text(const char *key) {
    return !strcmp(key, "debug") || !strcmp(key, "plugin.library.paths");
}

size_t cfl_conf_text(const rd_kafka_conf_t *conf, const char *name, char *dest, size_t size) {
    size_t needed = size; /* librdkafka copies what fits and answers the size the value needs */
    dest[0] = '\0';
    if (rd_kafka_conf_get(conf, name, dest, &needed) != RD_KAFKA_CONF_OK)
        return 0;
    return needed > 0 ? needed - 1 : 0;
}

/* librdkafka reads an int property with (int)strtol(): a number beyond 32 bits wraps, and where
 * the wrapped number is in the property's range it is taken without a word (2**32 + 5 as 5).
 * After librdkafka took `v`, the number it kept is compared with the one given; a difference is
 * refused. Only texts that start with a number outside int32 are checked, and only where what
 * librdkafka kept reads back as a whole int: text and double properties keep their text. */
static int refuse_wrapped(cfl_state *st, const rd_kafka_conf_t *conf, const char *k, const char *v) {
    char *end;
    errno = 0;
    long long given = strtoll(v, &end, 0);
    int given_huge = errno == ERANGE; /* beyond 64 bits: librdkafka's strtol() saturates too */
    /* As librdkafka reads it: the leading number, whatever follows ("4294967301 " too). */
    if (end == v || (!given_huge && given >= INT_MIN && given <= INT_MAX))
        return 0;
    char kept[128];
    size_t len = cfl_conf_text(conf, k, kept, sizeof(kept));
    if (len == 0 || len >= sizeof(kept))
        return 0;
    errno = 0;
    long long read = strtoll(kept, &end, 10);
    if (end == kept || *end != '\0' || errno == ERANGE || (!given_huge && read == given))
        return 0; /* not an int property (a string keeps the text as given) */
    cfl_raise_fmt(st, RD_KAFKA_RESP_ERR__INVALID_ARG,
                  "Configuration property \"%s\" value %s does not fit the 32-bit int librdkafka keeps "
                  "(it would be read as %s)", k, v, kept);
    return -1;
}

/* Set one librdkafka property: value None unsets it (NULL), anything else goes as str(value). */
static int conf_set(cfl_state *st, rd_kafka_conf_t *conf, const char *k, PyObject *value) {
    PyObject *vs = NULL;
    const char *v = NULL;
    if (value != Py_None || none_is_text(k)) {
        vs = PyUnicode_Check(value) ? Py_NewRef(value) : PyObject_Str(value);
        if (vs == NULL || (v = PyUnicode_AsUTF8(vs)) == NULL) {
            Py_XDECREF(vs);
            return -1;
        }
    }
    char errstr[512];
    rd_kafka_conf_res_t res = rd_kafka_conf_set(conf, k, v, errstr, sizeof(errstr));
    int rc = 0;
    if (res != RD_KAFKA_CONF_OK) {
        cfl_raise(st, RD_KAFKA_RESP_ERR__INVALID_ARG, errstr);
        rc = -1;
    } else if (v != NULL) {
        rc = refuse_wrapped(st, conf, k, v);
    }
    Py_XDECREF(vs);
    return rc;
}

/* A callback key: anything callable is kept in *slot; else `exc` with `message`. */
static int set_callable(PyObject **slot, PyObject *value, PyObject *exc, const char *message) {
    if (!PyCallable_Check(value)) {
        PyErr_SetString(exc, message);
        return -1;
    }
    Py_XSETREF(*slot, Py_NewRef(value));
    return 0;
}

/* A callback key whose refusal is a KafkaException(_INVALID_ARG), as on_delivery's and on_commit's are. */
static int set_callable_arg(cfl_state *st, PyObject **slot, PyObject *value, const char *key) {
    if (!PyCallable_Check(value)) {
        cfl_raise_fmt(st, RD_KAFKA_RESP_ERR__INVALID_ARG, "%s requires a callable object", key);
        return -1;
    }
    Py_XSETREF(*slot, Py_NewRef(value));
    return 0;
}

static int conf_item(Handle *h, cfl_state *st, rd_kafka_conf_t *conf, PyObject *key, PyObject *value);

/* default.topic.config: its items are configured like the top-level ones (librdkafka takes
 * topic properties on the client's configuration). Anything but a mapping fails on .keys(). */
static int topic_config(Handle *h, cfl_state *st, rd_kafka_conf_t *conf, PyObject *value) {
    /* (key, value) pairs: a dict's items, or for any other object keys() and item lookups. */
    PyObject *keys = NULL, *items;
    if (PyDict_Check(value)) {
        items = PyDict_Items(value);
    } else {
        keys = PyObject_CallMethod(value, "keys", NULL);
        PyObject *seq = keys ? PySequence_Fast(keys, "default.topic.config keys() must be iterable") : NULL;
        items = seq ? PyList_New(0) : NULL;
        for (Py_ssize_t i = 0; items != NULL && i < PySequence_Fast_GET_SIZE(seq); i++) {
            PyObject *k = PySequence_Fast_GET_ITEM(seq, i);
            PyObject *v = PyObject_GetItem(value, k);
            PyObject *kv = v ? PyTuple_Pack(2, k, v) : NULL;
            if (kv == NULL || PyList_Append(items, kv) < 0)
                Py_CLEAR(items);
            Py_XDECREF(v);
            Py_XDECREF(kv);
        }
        Py_XDECREF(seq);
        Py_XDECREF(keys);
    }
    if (items == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++) {
        PyObject *kv = PyList_GET_ITEM(items, i);
        /* A default.topic.config inside one (even itself) recurses: bounded like Python code. */
        int rc = Py_EnterRecursiveCall(" in default.topic.config") ? -1 : 0;
        if (rc == 0) {
            rc = conf_item(h, st, conf, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1));
            Py_LeaveRecursiveCall();
        }
        if (rc < 0) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);
    return 0;
}

/* consumer_timeout_ms (kafka-python's): idle milliseconds after which `for msg in consumer` stops. */
static int iter_timeout(Handle *h, PyObject *value) {
    if (value == Py_None) {
        h->iter_timeout_ms = -1;
        return 0;
    }
    long ms = PyLong_Check(value) && !PyBool_Check(value) ? PyLong_AsLong(value) : -2;
    if (ms == -1 && PyErr_Occurred())
        return -1;
    if (ms == -2 || ms > INT_MAX) {
        PyErr_Format(PyExc_TypeError, "'consumer_timeout_ms' must be an int of milliseconds or None, got %R", value);
        return -1;
    }
    h->iter_timeout_ms = ms < 0 ? -1 : (int)ms;
    return 0;
}

/* One key: a Python-only one is kept on the handle, anything else goes to librdkafka. */
static int conf_item(Handle *h, cfl_state *st, rd_kafka_conf_t *conf, PyObject *key, PyObject *value) {
    PyObject *ks = PyUnicode_Check(key) ? Py_NewRef(key) : PyObject_Str(key);
    const char *k = ks ? PyUnicode_AsUTF8(ks) : NULL;
    int rc;
    if (k == NULL)
        rc = -1;
    else if (!strcmp(k, "error_cb"))
        rc = set_callable(&h->error_cb, value, PyExc_TypeError, "expected error_cb property as a callable function");
    else if (!strcmp(k, "throttle_cb"))
        rc = set_callable(&h->throttle_cb, value, PyExc_ValueError,
                          "expected throttle_cb property as a callable function");
    else if (!strcmp(k, "stats_cb"))
        rc = set_callable(&h->stats_cb, value, PyExc_TypeError, "expected stats_cb property as a callable function");
    else if (!strcmp(k, "oauth_cb"))
        rc = set_callable(&h->oauth_cb, value, PyExc_TypeError, "expected oauth_cb property as a callable function");
    else if (!strcmp(k, "logger")) {
        /* Any object: its log() is looked up when there is something to log. */
        Py_XSETREF(h->logger, value == Py_None ? NULL : Py_NewRef(value));
        rc = 0;
    } else if (!strcmp(k, "default.topic.config"))
        rc = topic_config(h, st, conf, value);
    else if (h->kind == RD_KAFKA_PRODUCER && !strcmp(k, "on_delivery"))
        rc = set_callable_arg(st, &h->on_delivery, value, k);
    else if (h->kind == RD_KAFKA_PRODUCER && !strcmp(k, "dr_cb") && PyCallable_Check(value))
        rc = set_callable_arg(st, &h->on_delivery, value, k); /* an older name of on_delivery */
    else if (h->kind == RD_KAFKA_CONSUMER && !strcmp(k, "on_commit"))
        rc = set_callable_arg(st, &h->on_commit, value, k);
    else if (h->kind == RD_KAFKA_CONSUMER && !strcmp(k, "consumer_timeout_ms"))
        rc = iter_timeout(h, value);
    else if (h->kind == RD_KAFKA_PRODUCER && !strcmp(k, "delivery.report.only.error")) {
        /* Kept in Python-land: every reported message must release what it holds. */
        if (!PyBool_Check(value)) {
            PyErr_Format(PyExc_TypeError, "Expected delivery.report.only.error to be bool type, not %.100s",
                         Py_TYPE(value)->tp_name);
            rc = -1;
        } else {
            h->dr_only_error = value == Py_True;
            rc = 0;
        }
    } else
        rc = conf_set(st, conf, k, value);
    Py_XDECREF(ks);
    return rc;
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

/* A consumer needs a group.id (None or empty counts as none). */
static int check_group_id(PyObject *merged) {
    PyObject *g = PyDict_GetItemString(merged, "group.id");
    int empty = g == NULL || g == Py_None || (PyUnicode_Check(g) && PyUnicode_GET_LENGTH(g) == 0);
    if (empty) {
        PyErr_SetString(PyExc_ValueError, "Failed to create consumer: group.id must be set");
        return -1;
    }
    return 0;
}

/* The constructor's (conf, **kwargs) as one new dict. `none_ok`: a None conf counts as none
 * (AdminClient passes its optional conf on as is); a Producer or Consumer refuses it. */
static PyObject *merged_config(PyObject *args, PyObject *kwargs, int none_ok) {
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    PyObject *d = nargs == 1 ? PyTuple_GET_ITEM(args, 0) : NULL;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "expected tuple containing single dict");
        return NULL;
    }
    if (d == Py_None && none_ok)
        d = NULL;
    else if (d != NULL && !PyDict_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "expected configuration dict");
        return NULL;
    }
    if (nargs == 0 && kwargs == NULL && !none_ok) { /* Producer(): no configuration at all */
        PyErr_SetString(PyExc_TypeError, "expected configuration dict");
        return NULL;
    }
    PyObject *merged = d != NULL ? PyDict_Copy(d) : PyDict_New();
    if (merged != NULL && kwargs != NULL && PyDict_Update(merged, kwargs) < 0)
        Py_CLEAR(merged);
    return merged;
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
    int client = PyObject_TypeCheck((PyObject *)h, st->ProducerType) || PyObject_TypeCheck((PyObject *)h, st->ConsumerType);
    PyObject *merged = merged_config(args, kwargs, !client);
    if (merged == NULL)
        return NULL;
    if ((h->kind == RD_KAFKA_CONSUMER && check_group_id(merged) < 0) || conf_prepare_oauthbearer(merged) < 0) {
        Py_DECREF(merged);
        return NULL;
    }
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    /* Items, not PyDict_Next: a key's str() or a callback check may run Python code. */
    PyObject *items = PyDict_Items(merged);
    for (Py_ssize_t i = 0; items != NULL && i < PyList_GET_SIZE(items); i++) {
        PyObject *kv = PyList_GET_ITEM(items, i);
        if (conf_item(h, st, conf, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0)
            Py_CLEAR(items);
    }
    if (items == NULL || (h->kind == RD_KAFKA_CONSUMER && apply_defaults(conf, merged) < 0)) {
        Py_XDECREF(items);
        rd_kafka_conf_destroy(conf);
        Py_DECREF(merged);
        return NULL;
    }
    Py_DECREF(items);
    Py_DECREF(merged);
    if (h->oauth_cb != NULL) {
        char mech[64];
        if (cfl_conf_text(conf, "sasl.mechanisms", mech, sizeof(mech)) && !strcmp(mech, "OAUTHBEARER"))
            CFL_STORE_INT(&h->oauth_state, 1); /* the constructor waits for the first token */
    }
    cfl_handle_set_callbacks(h, conf);
    return conf;
}
