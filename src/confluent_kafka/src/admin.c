/* _AdminClientImpl: admin requests answered through librdkafka's background thread. */
#include "admin.h"

#include <math.h>

#include "error.h"
#include "topic_partition.h"

#ifndef _WIN32
#include <pthread.h>
#endif

/* Set while this thread runs admin_event_cb (librdkafka's background thread). */
static CFL_THREAD_LOCAL int in_event_cb;

/* ---- pending futures ------------------------------------------------------------------- */

/* Resolve `fut` with a result, or with `exc` when that is not NULL. GIL held. A future the user
 * cancelled meanwhile is left alone. */
static void future_settle(PyObject *fut, PyObject *value, PyObject *exc) {
    /* Not PyObject_CallMethod(..., "O", v): a tuple v would be spread into arguments. */
    PyObject *name = PyUnicode_InternFromString(exc != NULL ? "set_exception" : "set_result");
    PyObject *r = name != NULL ? PyObject_CallMethodOneArg(fut, name, exc != NULL ? exc : value) : NULL;
    Py_XDECREF(name);
    if (r != NULL) {
        Py_DECREF(r);
        return;
    }
    PyObject *saved = CFL_FETCH_EXC();
    PyObject *done = PyObject_CallMethod(fut, "done", NULL);
    int already = done != NULL && PyObject_IsTrue(done) == 1;
    Py_XDECREF(done);
    PyErr_Clear();
    if (already) {
        Py_XDECREF(saved);
    } else {
        CFL_RESTORE_EXC(saved);
        PyErr_WriteUnraisable(fut);
    }
}

/* KafkaException(KafkaError(code, reason)) as an object (not raised). */
static PyObject *kafka_exception(cfl_state *st, PyObject *kafka_error) {
    if (kafka_error == NULL)
        return NULL;
    PyObject *exc = PyObject_CallOneArg(st->KafkaException, kafka_error);
    Py_DECREF(kafka_error);
    return exc;
}

/* Fail the future with the exception currently set (a conversion error). */
static void future_fail_current(PyObject *fut) {
    PyObject *exc = CFL_FETCH_EXC();
    if (exc == NULL)
        exc = PyObject_CallFunction(PyExc_RuntimeError, "s", "admin result conversion failed");
    if (exc != NULL) {
        future_settle(fut, NULL, exc);
        Py_DECREF(exc);
    } else {
        PyErr_WriteUnraisable(fut);
    }
}

/* Take the pending future registered under `ptr`, or NULL (new reference). GIL held. One step,
 * so that close() failing every pending future on another thread never meets it half taken. */
static PyObject *pending_pop(AdminObject *self, void *ptr) {
    if (self->pending == NULL)
        return NULL;
    PyObject *key = PyLong_FromVoidPtr(ptr);
    if (key == NULL)
        return NULL;
    PyObject *fut;
    if (cfl_dict_pop(self->pending, key, &fut) < 0)
        PyErr_Clear();
    Py_DECREF(key);
    return fut;
}

static int pending_add(AdminObject *self, PyObject *fut) {
    PyObject *key = PyLong_FromVoidPtr(fut);
    if (key == NULL)
        return -1;
    int rc = PyDict_SetItem(self->pending, key, fut);
    Py_DECREF(key);
    return rc;
}

/* Fail every pending future with KafkaException(_DESTROY). GIL held. */
static void pending_fail_all(AdminObject *self, const char *why) {
    if (self->pending == NULL)
        return;
    /* Take them all at once: results popping futures on librdkafka's thread meanwhile get
     * either their future or nothing. */
    PyObject *futures = NULL;
    int empty;
    Py_BEGIN_CRITICAL_SECTION(self->pending);
    empty = PyDict_GET_SIZE(self->pending) == 0;
    if (!empty && (futures = PyDict_Values(self->pending)) != NULL)
        PyDict_Clear(self->pending);
    Py_END_CRITICAL_SECTION();
    if (empty)
        return;
    if (futures == NULL) {
        PyErr_WriteUnraisable((PyObject *)self);
        return;
    }
    cfl_state *st = self->h.st;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(futures); i++) {
        PyObject *fut = PyList_GET_ITEM(futures, i);
        PyObject *exc = st ? kafka_exception(st, cfl_error_new(st, RD_KAFKA_RESP_ERR__DESTROY, why)) : NULL;
        if (exc == NULL) {
            future_fail_current(fut);
            continue;
        }
        future_settle(fut, NULL, exc);
        Py_DECREF(exc);
    }
    Py_DECREF(futures);
}

/* librdkafka's background thread: one admin result. */
static void admin_event_cb(rd_kafka_t *rk, rd_kafka_event_t *rkev, void *opaque) {
    AdminObject *self = (AdminObject *)opaque;
    void *ptr = rd_kafka_event_opaque(rkev);
    PyGILState_STATE gs = PyGILState_Ensure();
    if (CFL_LOAD_INT(&self->h.no_callbacks)) {
        /* Torn down: every future was already failed, and `pending` may be gone. */
        rd_kafka_event_destroy(rkev);
        PyGILState_Release(gs);
        return;
    }
    in_event_cb = 1;
    PyObject *fut = ptr != NULL ? pending_pop(self, ptr) : NULL;
    if (fut == NULL) {
        /* Not one of ours, or already failed by close(). */
        PyErr_Clear();
    } else {
        cfl_state *st = self->h.st;
        rd_kafka_resp_err_t err = rd_kafka_event_error(rkev);
        if (st == NULL) {
            future_fail_current(fut);
        } else if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            PyObject *exc = kafka_exception(st, cfl_error_new(st, err, rd_kafka_event_error_string(rkev)));
            if (exc != NULL) {
                future_settle(fut, NULL, exc);
                Py_DECREF(exc);
            } else {
                future_fail_current(fut);
            }
        } else {
            PyObject *value = cfl_admin_result(st, rkev);
            if (value != NULL) {
                future_settle(fut, value, NULL);
                Py_DECREF(value);
            } else {
                future_fail_current(fut);
            }
        }
        Py_DECREF(fut);
    }
    rd_kafka_event_destroy(rkev);
    in_event_cb = 0;
    PyGILState_Release(gs);
}

/* ---- argument helpers ------------------------------------------------------------------ */

static int check_future(AdminObject *self, PyObject *fut) {
    if (self->future_type == NULL || self->pending == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "AdminClient is not initialized (was __init__ called?)");
        return -1;
    }
    int ok = PyObject_IsInstance(fut, self->future_type);
    if (ok < 0)
        return -1;
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "future must be a concurrent.futures.Future, not %.100s",
                     Py_TYPE(fut)->tp_name);
        return -1;
    }
    return 0;
}

/* No rd_kafka_t and none coming: closed, never initialised (a subclass whose __init__ skips
 * ours), or whose __init__ failed. Upstream reports all three as a closed client. */
static int without_handle(AdminObject *self) {
    return CFL_LOAD_PTR(&self->h.rk) == NULL &&
           (CFL_LOAD_INT(&self->h.closed) || !CFL_LOAD_INT(&self->h.closing));
}

static int usable(AdminObject *self) {
    if (without_handle(self)) {
        PyErr_SetString(PyExc_RuntimeError, "AdminClient has been closed");
        return -1;
    }
    if (CFL_LOAD_INT(&self->h.closing)) {
        PyErr_SetString(PyExc_RuntimeError, "AdminClient is being closed");
        return -1;
    }
    return cfl_handle_check(&self->h);
}

/* The calls upstream serves from its generic handle code say "Handle has been closed". */
static int handle_open(AdminObject *self) {
    if (without_handle(self)) {
        PyErr_SetString(PyExc_RuntimeError, "Handle has been closed");
        return -1;
    }
    return 0;
}

/* A list or tuple as a new tuple (the items then stay alive while we point into them). */
static PyObject *as_tuple(PyObject *seq, const char *what) {
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list, not %.100s", what, Py_TYPE(seq)->tp_name);
        return NULL;
    }
    return PySequence_Tuple(seq);
}

static const char *str_arg(PyObject *o, const char *what, int allow_none) {
    if (o == Py_None && allow_none)
        return NULL;
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be str%s, not %.100s", what, allow_none ? " or None" : "",
                     Py_TYPE(o)->tp_name);
        return NULL;
    }
    return PyUnicode_AsUTF8(o);
}

/* A list/tuple of str as a C array pointing into `*keep` (a tuple the caller releases). */
static const char **str_array(PyObject *seq, const char *what, PyObject **keep, size_t *cnt) {
    *keep = as_tuple(seq, what);
    if (*keep == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(*keep);
    const char **arr = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(char *));
    if (arr == NULL) {
        PyErr_NoMemory();
        Py_CLEAR(*keep);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if ((arr[i] = str_arg(PyTuple_GET_ITEM(*keep, i), what, 0)) == NULL) {
            PyMem_Free(arr);
            Py_CLEAR(*keep);
            return NULL;
        }
    }
    *cnt = (size_t)n;
    return arr;
}

static int int_of(PyObject *o, const char *what, long lo, long hi, int *out) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be in [%ld, %ld], got %ld", what, lo, hi, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* A list of broker ids as a new int32_t array. */
static int32_t *broker_ids(PyObject *seq, size_t *cnt) {
    PyObject *t = as_tuple(seq, "replica assignment entry");
    if (t == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    int32_t *ids = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(int32_t));
    if (ids == NULL) {
        Py_DECREF(t);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int v;
        if (int_of(PyTuple_GET_ITEM(t, i), "broker id", 0, INT32_MAX, &v) < 0) {
            PyMem_Free(ids);
            Py_DECREF(t);
            return NULL;
        }
        ids[i] = v;
    }
    Py_DECREF(t);
    *cnt = (size_t)n;
    return ids;
}

static int opt_error(rd_kafka_error_t *error) {
    if (error == NULL)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s", rd_kafka_error_string(error));
    rd_kafka_error_destroy(error);
    return -1;
}

static int int_array(PyObject *seq, const char *what, int hi, int **out, size_t *cnt) {
    PyObject *t = as_tuple(seq, what);
    if (t == NULL)
        return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    int *arr = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    if (arr == NULL) {
        Py_DECREF(t);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (int_of(PyTuple_GET_ITEM(t, i), what, 0, hi, &arr[i]) < 0) {
            PyMem_Free(arr);
            Py_DECREF(t);
            return -1;
        }
    Py_DECREF(t);
    *out = arr;
    *cnt = (size_t)n;
    return 0;
}

/* rd_kafka_AdminOptions for `op` from a dict of options (None: defaults), with the future as
 * the request's opaque. Keys: request_timeout, operation_timeout (seconds), validate_only,
 * require_stable, include_authorized_operations (bool), isolation_level (int), states,
 * types (lists of int). */
static rd_kafka_AdminOptions_t *admin_options(AdminObject *self, rd_kafka_admin_op_t op, PyObject *opts,
                                              PyObject *fut) {
    if (opts != Py_None && !PyDict_Check(opts)) {
        PyErr_Format(PyExc_TypeError, "options must be a dict, not %.100s", Py_TYPE(opts)->tp_name);
        return NULL;
    }
    rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(self->h.rk, op);
    if (o == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "librdkafka refused to create admin options");
        return NULL;
    }
    char errstr[512];
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    /* The caller's dict may be changed by another thread meanwhile: walk it as it is now. */
    if (opts != Py_None && (opts = cfl_dict_snapshot(opts)) == NULL) {
        rd_kafka_AdminOptions_destroy(o);
        return NULL;
    }
    while (opts != Py_None && PyDict_Next(opts, &pos, &k, &v)) {
        const char *key = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        if (key == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "option names must be str");
            goto fail;
        }
        if (v == Py_None)
            continue; /* the default */
        int ms, b;
        rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
        if (!strcmp(key, "request_timeout") || !strcmp(key, "operation_timeout") || !strcmp(key, "broker")) {
            /* Milliseconds (a broker id for "broker"); librdkafka checks the range. */
            if (int_of(v, key, INT_MIN, INT_MAX, &ms) < 0)
                goto fail;
            if (key[0] == 'r')
                err = rd_kafka_AdminOptions_set_request_timeout(o, ms, errstr, sizeof(errstr));
            else if (key[0] == 'o')
                err = rd_kafka_AdminOptions_set_operation_timeout(o, ms, errstr, sizeof(errstr));
            else
                err = rd_kafka_AdminOptions_set_broker(o, ms, errstr, sizeof(errstr));
        } else if (!strcmp(key, "validate_only") || !strcmp(key, "require_stable") ||
                   !strcmp(key, "include_authorized_operations")) {
            if (!PyBool_Check(v)) {
                PyErr_Format(PyExc_TypeError, "%s must be a bool, not %.100s", key, Py_TYPE(v)->tp_name);
                goto fail;
            }
            b = v == Py_True;
            if (key[0] == 'v')
                err = rd_kafka_AdminOptions_set_validate_only(o, b, errstr, sizeof(errstr));
            else if (key[0] == 'r' && opt_error(rd_kafka_AdminOptions_set_require_stable_offsets(o, b)) < 0)
                goto fail;
            else if (key[0] == 'i' && opt_error(rd_kafka_AdminOptions_set_include_authorized_operations(o, b)) < 0)
                goto fail;
        } else if (!strcmp(key, "isolation_level")) {
            if (int_of(v, key, 0, 1, &ms) < 0 ||
                opt_error(rd_kafka_AdminOptions_set_isolation_level(o, (rd_kafka_IsolationLevel_t)ms)) < 0)
                goto fail;
        } else if (!strcmp(key, "states") || !strcmp(key, "types")) {
            int *arr;
            size_t cnt;
            int states = key[0] == 's';
            if (int_array(v, key, states ? RD_KAFKA_CONSUMER_GROUP_STATE__CNT - 1 : 2, &arr, &cnt) < 0)
                goto fail;
            rd_kafka_error_t *error = NULL;
            if (cnt > 0 && states)
                error = rd_kafka_AdminOptions_set_match_consumer_group_states(
                    o, (const rd_kafka_consumer_group_state_t *)arr, cnt);
#if RD_KAFKA_VERSION >= 0x020600ff
            else if (cnt > 0)
                error = rd_kafka_AdminOptions_set_match_consumer_group_types(
                    o, (const rd_kafka_consumer_group_type_t *)arr, cnt);
#endif
            PyMem_Free(arr);
            if (opt_error(error) < 0)
                goto fail;
        } else {
            PyErr_Format(PyExc_TypeError, "unknown admin option '%s'", key);
            goto fail;
        }
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            PyErr_SetString(PyExc_ValueError, errstr);
            goto fail;
        }
    }
    if (opts != Py_None)
        Py_DECREF(opts);
    rd_kafka_AdminOptions_set_opaque(o, fut);
    return o;
fail:
    if (opts != Py_None)
        Py_DECREF(opts);
    rd_kafka_AdminOptions_destroy(o);
    return NULL;
}

/* Common start of every request: the future, the client state and the options. */
static rd_kafka_AdminOptions_t *begin(AdminObject *self, rd_kafka_admin_op_t op, PyObject *fut, PyObject *opts) {
    if (usable(self) < 0 || check_future(self, fut) < 0)
        return NULL;
    return admin_options(self, op, opts, fut);
}

/* Register the future and send: `stmt` runs with the GIL released (it only enqueues). */
#define SEND(self, fut, options, stmt)                                                            \
    do {                                                                                          \
        if (pending_add((self), (fut)) < 0) {                                                     \
            rc = -1;                                                                              \
            break;                                                                                \
        }                                                                                         \
        CFL_BLOCKING(&(self)->h, stmt);                                                           \
        rc = 0;                                                                                   \
    } while (0)

static PyObject *done(int rc) {
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- topics ---------------------------------------------------------------------------- */

/* replica_assignment: one sequence of broker ids per partition, handed to `set`. */
typedef rd_kafka_resp_err_t (*replicas_fn)(void *obj, int32_t idx, int32_t *ids, size_t cnt, char *errstr,
                                           size_t errstr_size);

static rd_kafka_resp_err_t set_topic_replicas(void *nt, int32_t idx, int32_t *ids, size_t cnt, char *errstr,
                                              size_t size) {
    return rd_kafka_NewTopic_set_replica_assignment(nt, idx, ids, cnt, errstr, size);
}

static rd_kafka_resp_err_t set_partition_replicas(void *np, int32_t idx, int32_t *ids, size_t cnt, char *errstr,
                                                  size_t size) {
    return rd_kafka_NewPartitions_set_replica_assignment(np, idx, ids, cnt, errstr, size);
}

static int set_assignment(PyObject *assignment, const char *name, replicas_fn set, void *obj) {
    char errstr[512];
    PyObject *t = as_tuple(assignment, "replica_assignment");
    for (Py_ssize_t i = 0; t != NULL && i < PyTuple_GET_SIZE(t); i++) {
        size_t cnt;
        int32_t *ids = broker_ids(PyTuple_GET_ITEM(t, i), &cnt);
        if (ids == NULL || set(obj, (int32_t)i, ids, cnt, errstr, sizeof(errstr))) {
            if (ids != NULL)
                PyErr_SetString(PyExc_ValueError, errstr);
            Py_CLEAR(t);
        }
        PyMem_Free(ids);
    }
    if (t == NULL)
        return -1;
    Py_DECREF(t);
    return 0;
}

static rd_kafka_NewTopic_t *new_topic_of(PyObject *spec) {
    const char *name;
    int parts, rf;
    PyObject *assignment, *config;
    if (!PyTuple_Check(spec) ||
        !PyArg_ParseTuple(spec, "siiOO:new topic (name, num_partitions, replication_factor, replica_assignment, "
                                "config)", &name, &parts, &rf, &assignment, &config))
        goto bad;
    char errstr[512];
    rd_kafka_NewTopic_t *nt = rd_kafka_NewTopic_new(name, parts, rf, errstr, sizeof(errstr));
    if (nt == NULL) {
        PyErr_Format(PyExc_ValueError, "Invalid NewTopic(%s): %s", name, errstr);
        return NULL;
    }
    if (assignment != Py_None && set_assignment(assignment, name, set_topic_replicas, nt) < 0) {
        rd_kafka_NewTopic_destroy(nt);
        return NULL;
    }
    if (config != Py_None) {
        if (!PyDict_Check(config)) {
            PyErr_Format(PyExc_TypeError, "topic config must be a dict, not %.100s", Py_TYPE(config)->tp_name);
            rd_kafka_NewTopic_destroy(nt);
            return NULL;
        }
        PyObject *k, *v, *snap = cfl_dict_snapshot(config); /* the user's dict, as it is now */
        Py_ssize_t pos = 0;
        int bad = snap == NULL;
        while (!bad && PyDict_Next(snap, &pos, &k, &v)) {
            const char *ks = str_arg(k, "topic config key", 0);
            const char *vs = ks ? str_arg(v, "topic config value", 0) : NULL;
            if (vs == NULL) {
                bad = 1;
            } else if (rd_kafka_NewTopic_set_config(nt, ks, vs)) {
                PyErr_Format(PyExc_ValueError, "topic %s: invalid config %s", name, ks);
                bad = 1;
            }
        }
        Py_XDECREF(snap);
        if (bad) {
            rd_kafka_NewTopic_destroy(nt);
            return NULL;
        }
    }
    return nt;
bad:
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "new topic must be a tuple, not %.100s", Py_TYPE(spec)->tp_name);
    return NULL;
}

static PyObject *Admin_create_topics(AdminObject *self, PyObject *args) {
    PyObject *fut, *specs, *opts;
    if (!PyArg_ParseTuple(args, "OOO:_create_topics", &fut, &specs, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, RD_KAFKA_ADMIN_OP_CREATETOPICS, fut, opts);
    if (o == NULL)
        return NULL;
    PyObject *t = as_tuple(specs, "new_topics");
    Py_ssize_t n = t ? PyTuple_GET_SIZE(t) : 0;
    rd_kafka_NewTopic_t **arr = t ? PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(*arr)) : NULL;
    int rc = -1;
    Py_ssize_t made = 0;
    if (t != NULL && arr == NULL)
        PyErr_NoMemory();
    for (; arr != NULL && made < n; made++)
        if ((arr[made] = new_topic_of(PyTuple_GET_ITEM(t, made))) == NULL)
            break;
    if (arr != NULL && made == n)
        SEND(self, fut, o, rd_kafka_CreateTopics(self->h.rk, arr, (size_t)n, o, self->bgq));
    if (arr != NULL) {
        rd_kafka_NewTopic_destroy_array(arr, (size_t)made);
        PyMem_Free(arr);
    }
    Py_XDECREF(t);
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

static PyObject *Admin_delete_topics(AdminObject *self, PyObject *args) {
    PyObject *fut, *names, *opts, *keep;
    size_t n;
    if (!PyArg_ParseTuple(args, "OOO:_delete_topics", &fut, &names, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, RD_KAFKA_ADMIN_OP_DELETETOPICS, fut, opts);
    if (o == NULL)
        return NULL;
    const char **strs = str_array(names, "topics", &keep, &n);
    int rc = -1;
    if (strs != NULL) {
        rd_kafka_DeleteTopic_t **arr = PyMem_Calloc(n > 0 ? n : 1, sizeof(*arr));
        if (arr == NULL) {
            PyErr_NoMemory();
        } else {
            for (size_t i = 0; i < n; i++)
                arr[i] = rd_kafka_DeleteTopic_new(strs[i]);
            SEND(self, fut, o, rd_kafka_DeleteTopics(self->h.rk, arr, n, o, self->bgq));
            rd_kafka_DeleteTopic_destroy_array(arr, n);
            PyMem_Free(arr);
        }
        PyMem_Free(strs);
        Py_DECREF(keep);
    }
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

static rd_kafka_NewPartitions_t *new_partitions_of(PyObject *spec) {
    const char *name;
    int total;
    PyObject *assignment;
    if (!PyTuple_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "new partitions must be a tuple, not %.100s", Py_TYPE(spec)->tp_name);
        return NULL;
    }
    if (!PyArg_ParseTuple(spec, "siO:new partitions (topic, new_total_count, replica_assignment)", &name, &total,
                          &assignment))
        return NULL;
    char errstr[512];
    rd_kafka_NewPartitions_t *np =
        total < 1 ? NULL : rd_kafka_NewPartitions_new(name, (size_t)total, errstr, sizeof(errstr));
    if (np == NULL) {
        if (total < 1)
            snprintf(errstr, sizeof(errstr), "new_total_cnt out of expected range 1..100000");
        PyErr_Format(PyExc_ValueError, "Invalid NewPartitions(%s): %s", name, errstr);
        return NULL;
    }
    if (assignment != Py_None && set_assignment(assignment, name, set_partition_replicas, np) < 0) {
        rd_kafka_NewPartitions_destroy(np);
        return NULL;
    }
    return np;
}

static PyObject *Admin_create_partitions(AdminObject *self, PyObject *args) {
    PyObject *fut, *specs, *opts;
    if (!PyArg_ParseTuple(args, "OOO:_create_partitions", &fut, &specs, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, RD_KAFKA_ADMIN_OP_CREATEPARTITIONS, fut, opts);
    if (o == NULL)
        return NULL;
    PyObject *t = as_tuple(specs, "new_partitions");
    Py_ssize_t n = t ? PyTuple_GET_SIZE(t) : 0;
    rd_kafka_NewPartitions_t **arr = t ? PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(*arr)) : NULL;
    int rc = -1;
    Py_ssize_t made = 0;
    if (t != NULL && arr == NULL)
        PyErr_NoMemory();
    for (; arr != NULL && made < n; made++)
        if ((arr[made] = new_partitions_of(PyTuple_GET_ITEM(t, made))) == NULL)
            break;
    if (arr != NULL && made == n)
        SEND(self, fut, o, rd_kafka_CreatePartitions(self->h.rk, arr, (size_t)n, o, self->bgq));
    if (arr != NULL) {
        rd_kafka_NewPartitions_destroy_array(arr, (size_t)made);
        PyMem_Free(arr);
    }
    Py_XDECREF(t);
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

/* ---- configs --------------------------------------------------------------------------- */

enum config_kind { CFG_DESCRIBE, CFG_ALTER, CFG_INCREMENTAL };

/* (restype, name) / (restype, name, {key: value}) / (restype, name, [(key, op, value)]) */
static rd_kafka_ConfigResource_t *config_resource_of(PyObject *spec, enum config_kind kind) {
    int restype;
    const char *name;
    PyObject *entries = NULL;
    if (!PyTuple_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "config resource must be a tuple, not %.100s", Py_TYPE(spec)->tp_name);
        return NULL;
    }
    if (kind == CFG_DESCRIBE ? !PyArg_ParseTuple(spec, "is:config resource (restype, name)", &restype, &name)
                             : !PyArg_ParseTuple(spec, "isO:config resource (restype, name, configs)", &restype,
                                                 &name, &entries))
        return NULL;
    rd_kafka_ConfigResource_t *r = rd_kafka_ConfigResource_new((rd_kafka_ResourceType_t)restype, name);
    if (r == NULL) {
        PyErr_Format(PyExc_ValueError, "Invalid ConfigResource(%d,%s)", restype, name);
        return NULL;
    }
    if (kind == CFG_ALTER) {
        if (!PyDict_Check(entries)) {
            PyErr_Format(PyExc_TypeError, "configs must be a dict, not %.100s", Py_TYPE(entries)->tp_name);
            goto fail;
        }
        PyObject *k, *v, *snap = cfl_dict_snapshot(entries); /* the user's dict, as it is now */
        Py_ssize_t pos = 0;
        int bad = snap == NULL;
        while (!bad && PyDict_Next(snap, &pos, &k, &v)) {
            const char *ks = str_arg(k, "config name", 0);
            const char *vs = ks ? str_arg(v, "config value", 0) : NULL;
            if (vs == NULL) {
                bad = 1;
            } else if (rd_kafka_ConfigResource_set_config(r, ks, vs)) {
                PyErr_Format(PyExc_ValueError, "invalid config %s", ks);
                bad = 1;
            }
        }
        Py_XDECREF(snap);
        if (bad)
            goto fail;
    } else if (kind == CFG_INCREMENTAL) {
        PyObject *t = as_tuple(entries, "incremental configs");
        for (Py_ssize_t i = 0; t != NULL && i < PyTuple_GET_SIZE(t); i++) {
            PyObject *e = PyTuple_GET_ITEM(t, i);
            const char *ks;
            int op;
            PyObject *val;
            const char *vs = NULL;
            if (!PyTuple_Check(e)) {
                PyErr_Format(PyExc_TypeError, "incremental config must be a tuple, not %.100s", Py_TYPE(e)->tp_name);
                Py_CLEAR(t);
                break;
            }
            if (!PyArg_ParseTuple(e, "siO:incremental config (name, op, value)", &ks, &op, &val) ||
                (val != Py_None && (vs = str_arg(val, "config value", 1)) == NULL)) {
                Py_CLEAR(t);
                break;
            }
            rd_kafka_error_t *error =
                rd_kafka_ConfigResource_add_incremental_config(r, ks, (rd_kafka_AlterConfigOpType_t)op, vs);
            if (opt_error(error) < 0)
                Py_CLEAR(t);
        }
        if (t == NULL)
            goto fail;
        Py_DECREF(t);
    }
    return r;
fail:
    rd_kafka_ConfigResource_destroy(r);
    return NULL;
}

static PyObject *configs_request(AdminObject *self, PyObject *args, enum config_kind kind) {
    static const rd_kafka_admin_op_t ops[] = {RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, RD_KAFKA_ADMIN_OP_ALTERCONFIGS,
                                              RD_KAFKA_ADMIN_OP_INCREMENTALALTERCONFIGS};
    PyObject *fut, *specs, *opts;
    if (!PyArg_ParseTuple(args, "OOO:_configs", &fut, &specs, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, ops[kind], fut, opts);
    if (o == NULL)
        return NULL;
    PyObject *t = as_tuple(specs, "resources");
    Py_ssize_t n = t ? PyTuple_GET_SIZE(t) : 0;
    rd_kafka_ConfigResource_t **arr = t ? PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(*arr)) : NULL;
    int rc = -1;
    Py_ssize_t made = 0;
    if (t != NULL && arr == NULL)
        PyErr_NoMemory();
    for (; arr != NULL && made < n; made++)
        if ((arr[made] = config_resource_of(PyTuple_GET_ITEM(t, made), kind)) == NULL)
            break;
    if (arr != NULL && made == n) {
        rd_kafka_t *rk = self->h.rk;
        if (kind == CFG_DESCRIBE)
            SEND(self, fut, o, rd_kafka_DescribeConfigs(rk, arr, (size_t)n, o, self->bgq));
        else if (kind == CFG_ALTER)
            SEND(self, fut, o, rd_kafka_AlterConfigs(rk, arr, (size_t)n, o, self->bgq));
        else
            SEND(self, fut, o, rd_kafka_IncrementalAlterConfigs(rk, arr, (size_t)n, o, self->bgq));
    }
    if (arr != NULL) {
        rd_kafka_ConfigResource_destroy_array(arr, (size_t)made);
        PyMem_Free(arr);
    }
    Py_XDECREF(t);
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

static PyObject *Admin_describe_configs(AdminObject *self, PyObject *args) {
    return configs_request(self, args, CFG_DESCRIBE);
}
static PyObject *Admin_alter_configs(AdminObject *self, PyObject *args) {
    return configs_request(self, args, CFG_ALTER);
}
static PyObject *Admin_incremental_alter_configs(AdminObject *self, PyObject *args) {
    return configs_request(self, args, CFG_INCREMENTAL);
}

/* ---- ACLs ------------------------------------------------------------------------------ */

/* (restype, name, pattern_type, principal, host, operation, permission_type) */
static void *acl_of(PyObject *spec, int filter) {
    int restype, pattern, operation, permission;
    PyObject *name, *principal, *host;
    if (!PyTuple_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "ACL binding must be a tuple, not %.100s", Py_TYPE(spec)->tp_name);
        return NULL;
    }
    if (!PyArg_ParseTuple(spec, "iOiOOii:ACL (restype, name, pattern_type, principal, host, operation, permission)",
                          &restype, &name, &pattern, &principal, &host, &operation, &permission))
        return NULL;
    const char *n = NULL, *p = NULL, *h = NULL;
    if ((name != Py_None && (n = str_arg(name, "ACL name", 1)) == NULL) ||
        (principal != Py_None && (p = str_arg(principal, "ACL principal", 1)) == NULL) ||
        (host != Py_None && (h = str_arg(host, "ACL host", 1)) == NULL))
        return NULL;
    char errstr[512];
    void *acl = filter ? (void *)rd_kafka_AclBindingFilter_new(
                             (rd_kafka_ResourceType_t)restype, n, (rd_kafka_ResourcePatternType_t)pattern, p, h,
                             (rd_kafka_AclOperation_t)operation, (rd_kafka_AclPermissionType_t)permission, errstr,
                             sizeof(errstr))
                       : (void *)rd_kafka_AclBinding_new((rd_kafka_ResourceType_t)restype, n,
                                                         (rd_kafka_ResourcePatternType_t)pattern, p, h,
                                                         (rd_kafka_AclOperation_t)operation,
                                                         (rd_kafka_AclPermissionType_t)permission, errstr,
                                                         sizeof(errstr));
    if (acl == NULL)
        PyErr_Format(PyExc_ValueError, "invalid ACL %s: %s", filter ? "filter" : "binding", errstr);
    return acl;
}

static PyObject *acls_request(AdminObject *self, PyObject *args, rd_kafka_admin_op_t op) {
    PyObject *fut, *specs, *opts;
    if (!PyArg_ParseTuple(args, "OOO:_acls", &fut, &specs, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, op, fut, opts);
    if (o == NULL)
        return NULL;
    int rc = -1;
    if (op == RD_KAFKA_ADMIN_OP_DESCRIBEACLS) {
        rd_kafka_AclBindingFilter_t *f = acl_of(specs, 1);
        if (f != NULL) {
            SEND(self, fut, o, rd_kafka_DescribeAcls(self->h.rk, f, o, self->bgq));
            rd_kafka_AclBinding_destroy(f);
        }
        rd_kafka_AdminOptions_destroy(o);
        return done(rc);
    }
    PyObject *t = as_tuple(specs, "acls");
    Py_ssize_t n = t ? PyTuple_GET_SIZE(t) : 0;
    rd_kafka_AclBinding_t **arr = t ? PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(*arr)) : NULL;
    Py_ssize_t made = 0;
    if (t != NULL && arr == NULL)
        PyErr_NoMemory();
    for (; arr != NULL && made < n; made++)
        if ((arr[made] = acl_of(PyTuple_GET_ITEM(t, made), op == RD_KAFKA_ADMIN_OP_DELETEACLS)) == NULL)
            break;
    if (arr != NULL && made == n) {
        if (op == RD_KAFKA_ADMIN_OP_CREATEACLS)
            SEND(self, fut, o, rd_kafka_CreateAcls(self->h.rk, arr, (size_t)n, o, self->bgq));
        else
            SEND(self, fut, o, rd_kafka_DeleteAcls(self->h.rk, arr, (size_t)n, o, self->bgq));
    }
    if (arr != NULL) {
        rd_kafka_AclBinding_destroy_array(arr, (size_t)made);
        PyMem_Free(arr);
    }
    Py_XDECREF(t);
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

static PyObject *Admin_create_acls(AdminObject *self, PyObject *args) {
    return acls_request(self, args, RD_KAFKA_ADMIN_OP_CREATEACLS);
}
static PyObject *Admin_describe_acls(AdminObject *self, PyObject *args) {
    return acls_request(self, args, RD_KAFKA_ADMIN_OP_DESCRIBEACLS);
}
static PyObject *Admin_delete_acls(AdminObject *self, PyObject *args) {
    return acls_request(self, args, RD_KAFKA_ADMIN_OP_DELETEACLS);
}

/* ---- groups ---------------------------------------------------------------------------- */

static PyObject *Admin_list_consumer_groups(AdminObject *self, PyObject *args) {
    PyObject *fut, *opts;
    if (!PyArg_ParseTuple(args, "OO:_list_consumer_groups", &fut, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS, fut, opts);
    if (o == NULL)
        return NULL;
    int rc;
    SEND(self, fut, o, rd_kafka_ListConsumerGroups(self->h.rk, o, self->bgq));
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

/* Requests that take a list of names: describe/delete groups, describe topics, SCRAM users. */
enum names_kind { NAMES_DESCRIBE_GROUPS, NAMES_DELETE_GROUPS, NAMES_DESCRIBE_TOPICS, NAMES_DESCRIBE_SCRAM };

static PyObject *names_request(AdminObject *self, PyObject *args, enum names_kind kind) {
    static const rd_kafka_admin_op_t ops[] = {RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, RD_KAFKA_ADMIN_OP_DELETEGROUPS,
                                              RD_KAFKA_ADMIN_OP_DESCRIBETOPICS,
                                              RD_KAFKA_ADMIN_OP_DESCRIBEUSERSCRAMCREDENTIALS};
    PyObject *fut, *names, *opts, *keep;
    size_t n;
    if (!PyArg_ParseTuple(args, "OOO:_names", &fut, &names, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, ops[kind], fut, opts);
    if (o == NULL)
        return NULL;
    const char **strs = str_array(names, kind == NAMES_DESCRIBE_TOPICS ? "topics"
                                         : kind == NAMES_DESCRIBE_SCRAM ? "users"
                                                                        : "group_ids",
                                  &keep, &n);
    int rc = -1;
    if (strs != NULL) {
        rd_kafka_t *rk = self->h.rk;
        if (kind == NAMES_DESCRIBE_GROUPS) {
            SEND(self, fut, o, rd_kafka_DescribeConsumerGroups(rk, strs, n, o, self->bgq));
        } else if (kind == NAMES_DESCRIBE_TOPICS) {
            rd_kafka_TopicCollection_t *tc = rd_kafka_TopicCollection_of_topic_names(strs, n);
            SEND(self, fut, o, rd_kafka_DescribeTopics(rk, tc, o, self->bgq));
            rd_kafka_TopicCollection_destroy(tc);
        } else if (kind == NAMES_DESCRIBE_SCRAM) {
            SEND(self, fut, o, rd_kafka_DescribeUserScramCredentials(rk, strs, n, o, self->bgq));
        } else {
            rd_kafka_DeleteGroup_t **arr = PyMem_Calloc(n > 0 ? n : 1, sizeof(*arr));
            if (arr == NULL) {
                PyErr_NoMemory();
            } else {
                for (size_t i = 0; i < n; i++)
                    arr[i] = rd_kafka_DeleteGroup_new(strs[i]);
                SEND(self, fut, o, rd_kafka_DeleteGroups(rk, arr, n, o, self->bgq));
                rd_kafka_DeleteGroup_destroy_array(arr, n);
                PyMem_Free(arr);
            }
        }
        PyMem_Free(strs);
        Py_DECREF(keep);
    }
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

static PyObject *Admin_describe_consumer_groups(AdminObject *self, PyObject *args) {
    return names_request(self, args, NAMES_DESCRIBE_GROUPS);
}
static PyObject *Admin_delete_consumer_groups(AdminObject *self, PyObject *args) {
    return names_request(self, args, NAMES_DELETE_GROUPS);
}
static PyObject *Admin_describe_topics(AdminObject *self, PyObject *args) {
    return names_request(self, args, NAMES_DESCRIBE_TOPICS);
}
static PyObject *Admin_describe_user_scram_credentials(AdminObject *self, PyObject *args) {
    return names_request(self, args, NAMES_DESCRIBE_SCRAM);
}

/* [(group_id, [TopicPartition] or None)]: list (alter=0) or alter (alter=1) committed offsets. */
static PyObject *group_offsets_request(AdminObject *self, PyObject *args, int alter) {
    PyObject *fut, *specs, *opts;
    if (!PyArg_ParseTuple(args, "OOO:_group_offsets", &fut, &specs, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(
        self, alter ? RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS : RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, fut,
        opts);
    if (o == NULL)
        return NULL;
    PyObject *t = as_tuple(specs, "requests");
    Py_ssize_t n = t ? PyTuple_GET_SIZE(t) : 0;
    void **arr = t ? PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(*arr)) : NULL;
    int rc = -1;
    Py_ssize_t made = 0;
    if (t != NULL && arr == NULL)
        PyErr_NoMemory();
    for (; arr != NULL && made < n; made++) {
        PyObject *spec = PyTuple_GET_ITEM(t, made), *parts;
        const char *group;
        if (!PyTuple_Check(spec)) {
            PyErr_Format(PyExc_TypeError, "group offsets request must be a tuple, not %.100s", Py_TYPE(spec)->tp_name);
            break;
        }
        if (!PyArg_ParseTuple(spec, "sO:group offsets request (group_id, partitions)", &group, &parts))
            break;
        rd_kafka_topic_partition_list_t *c_parts = NULL;
        if (parts != Py_None || alter) {
            if ((c_parts = cfl_tp_list_to_c(self->h.st, parts, "topic_partitions")) == NULL)
                break;
        }
        arr[made] = alter ? (void *)rd_kafka_AlterConsumerGroupOffsets_new(group, c_parts)
                          : (void *)rd_kafka_ListConsumerGroupOffsets_new(group, c_parts);
        if (c_parts != NULL)
            rd_kafka_topic_partition_list_destroy(c_parts);
    }
    if (arr != NULL && made == n) {
        if (alter)
            SEND(self, fut, o,
                 rd_kafka_AlterConsumerGroupOffsets(self->h.rk, (rd_kafka_AlterConsumerGroupOffsets_t **)arr, (size_t)n,
                                                    o, self->bgq));
        else
            SEND(self, fut, o,
                 rd_kafka_ListConsumerGroupOffsets(self->h.rk, (rd_kafka_ListConsumerGroupOffsets_t **)arr, (size_t)n,
                                                   o, self->bgq));
    }
    if (arr != NULL) {
        if (alter)
            rd_kafka_AlterConsumerGroupOffsets_destroy_array((rd_kafka_AlterConsumerGroupOffsets_t **)arr, (size_t)made);
        else
            rd_kafka_ListConsumerGroupOffsets_destroy_array((rd_kafka_ListConsumerGroupOffsets_t **)arr, (size_t)made);
        PyMem_Free(arr);
    }
    Py_XDECREF(t);
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

static PyObject *Admin_list_consumer_group_offsets(AdminObject *self, PyObject *args) {
    return group_offsets_request(self, args, 0);
}
static PyObject *Admin_alter_consumer_group_offsets(AdminObject *self, PyObject *args) {
    return group_offsets_request(self, args, 1);
}

/* ---- cluster, offsets, records, leaders ------------------------------------------------ */

static PyObject *Admin_describe_cluster(AdminObject *self, PyObject *args) {
    PyObject *fut, *opts;
    if (!PyArg_ParseTuple(args, "OO:_describe_cluster", &fut, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, RD_KAFKA_ADMIN_OP_DESCRIBECLUSTER, fut, opts);
    if (o == NULL)
        return NULL;
    int rc;
    SEND(self, fut, o, rd_kafka_DescribeCluster(self->h.rk, o, self->bgq));
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

/* [TopicPartition] whose offsets are OffsetSpec values (list_offsets) or the offsets to delete
 * records before (delete_records). */
static PyObject *partitions_request(AdminObject *self, PyObject *args, rd_kafka_admin_op_t op) {
    PyObject *fut, *parts, *opts;
    if (!PyArg_ParseTuple(args, "OOO:_partitions", &fut, &parts, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, op, fut, opts);
    if (o == NULL)
        return NULL;
    int rc = -1;
    rd_kafka_topic_partition_list_t *c_parts = cfl_tp_list_to_c(self->h.st, parts, "topic_partitions");
    if (c_parts != NULL) {
        if (op == RD_KAFKA_ADMIN_OP_LISTOFFSETS) {
            SEND(self, fut, o, rd_kafka_ListOffsets(self->h.rk, c_parts, o, self->bgq));
        } else {
            rd_kafka_DeleteRecords_t *dr = rd_kafka_DeleteRecords_new(c_parts);
            SEND(self, fut, o, rd_kafka_DeleteRecords(self->h.rk, &dr, 1, o, self->bgq));
            rd_kafka_DeleteRecords_destroy(dr);
        }
        rd_kafka_topic_partition_list_destroy(c_parts);
    }
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

static PyObject *Admin_list_offsets(AdminObject *self, PyObject *args) {
    return partitions_request(self, args, RD_KAFKA_ADMIN_OP_LISTOFFSETS);
}
static PyObject *Admin_delete_records(AdminObject *self, PyObject *args) {
    return partitions_request(self, args, RD_KAFKA_ADMIN_OP_DELETERECORDS);
}

static PyObject *Admin_elect_leaders(AdminObject *self, PyObject *args) {
    PyObject *fut, *parts, *opts;
    int type;
    if (!PyArg_ParseTuple(args, "OiOO:_elect_leaders", &fut, &type, &parts, &opts))
        return NULL;
    if (type != RD_KAFKA_ELECTION_TYPE_PREFERRED && type != RD_KAFKA_ELECTION_TYPE_UNCLEAN) {
        PyErr_Format(PyExc_ValueError, "invalid election type %d", type);
        return NULL;
    }
    rd_kafka_AdminOptions_t *o = begin(self, RD_KAFKA_ADMIN_OP_ELECTLEADERS, fut, opts);
    if (o == NULL)
        return NULL;
    int rc = -1;
    rd_kafka_topic_partition_list_t *c_parts = NULL;
    if (parts == Py_None || (c_parts = cfl_tp_list_to_c(self->h.st, parts, "partitions")) != NULL) {
        rd_kafka_ElectLeaders_t *el = rd_kafka_ElectLeaders_new((rd_kafka_ElectionType_t)type, c_parts);
        SEND(self, fut, o, rd_kafka_ElectLeaders(self->h.rk, el, o, self->bgq));
        rd_kafka_ElectLeaders_destroy(el);
        if (c_parts != NULL)
            rd_kafka_topic_partition_list_destroy(c_parts);
    }
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

/* ---- SCRAM ----------------------------------------------------------------------------- */

/* (user, mechanism, iterations, password, salt) upserts; (user, mechanism) deletes. */
static rd_kafka_UserScramCredentialAlteration_t *scram_alteration_of(PyObject *spec) {
    if (!PyTuple_Check(spec)) {
        PyErr_Format(PyExc_TypeError, "SCRAM alteration must be a tuple, not %.100s", Py_TYPE(spec)->tp_name);
        return NULL;
    }
    const char *user;
    int mech, iterations;
    if (PyTuple_GET_SIZE(spec) == 2) {
        if (!PyArg_ParseTuple(spec, "si:SCRAM deletion (user, mechanism)", &user, &mech))
            return NULL;
        return rd_kafka_UserScramCredentialDeletion_new(user, (rd_kafka_ScramMechanism_t)mech);
    }
    Py_buffer pw, salt = {0};
    PyObject *salt_obj;
    if (!PyArg_ParseTuple(spec, "siiy*O:SCRAM upsertion (user, mechanism, iterations, password, salt)", &user, &mech,
                          &iterations, &pw, &salt_obj))
        return NULL;
    if (salt_obj != Py_None && PyObject_GetBuffer(salt_obj, &salt, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&pw);
        return NULL;
    }
    rd_kafka_UserScramCredentialAlteration_t *a = rd_kafka_UserScramCredentialUpsertion_new(
        user, (rd_kafka_ScramMechanism_t)mech, iterations, pw.buf, (size_t)pw.len,
        salt_obj != Py_None ? salt.buf : NULL, salt_obj != Py_None ? (size_t)salt.len : 0);
    PyBuffer_Release(&pw);
    if (salt_obj != Py_None)
        PyBuffer_Release(&salt);
    return a;
}

static PyObject *Admin_alter_user_scram_credentials(AdminObject *self, PyObject *args) {
    PyObject *fut, *specs, *opts;
    if (!PyArg_ParseTuple(args, "OOO:_alter_user_scram_credentials", &fut, &specs, &opts))
        return NULL;
    rd_kafka_AdminOptions_t *o = begin(self, RD_KAFKA_ADMIN_OP_ALTERUSERSCRAMCREDENTIALS, fut, opts);
    if (o == NULL)
        return NULL;
    PyObject *t = as_tuple(specs, "alterations");
    Py_ssize_t n = t ? PyTuple_GET_SIZE(t) : 0;
    rd_kafka_UserScramCredentialAlteration_t **arr = t ? PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(*arr)) : NULL;
    int rc = -1;
    Py_ssize_t made = 0;
    if (t != NULL && arr == NULL)
        PyErr_NoMemory();
    for (; arr != NULL && made < n; made++)
        if ((arr[made] = scram_alteration_of(PyTuple_GET_ITEM(t, made))) == NULL)
            break;
    if (arr != NULL && made == n)
        SEND(self, fut, o, rd_kafka_AlterUserScramCredentials(self->h.rk, arr, (size_t)n, o, self->bgq));
    if (arr != NULL) {
        rd_kafka_UserScramCredentialAlteration_destroy_array(arr, (size_t)made);
        PyMem_Free(arr);
    }
    Py_XDECREF(t);
    rd_kafka_AdminOptions_destroy(o);
    return done(rc);
}

/* ---- synchronous calls ----------------------------------------------------------------- */

static PyObject *bytes_or_none(const void *p, int len) {
    if (p == NULL)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)p, len);
}

static PyObject *text(const char *s) {
    if (s == NULL)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* list_groups: [(group, err, state, protocol_type, protocol, (broker_id, host, port),
 *                [(member_id, client_id, client_host, metadata, assignment)])] */
static PyObject *Admin_list_groups(AdminObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"group", "timeout", NULL};
    PyObject *group = Py_None, *t = NULL;
    int timeout_ms;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:list_groups", kwlist, &group, &t) ||
        cfl_timeout_ms(t, &timeout_ms) < 0)
        return NULL;
    const char *g = NULL;
    if (group != Py_None && (g = str_arg(group, "group", 1)) == NULL)
        return NULL;
    if (handle_open(self) < 0 || usable(self) < 0)
        return NULL;
    cfl_state *st = self->h.st;
    const struct rd_kafka_group_list *gl = NULL;
    rd_kafka_resp_err_t err;
    Py_INCREF(group); /* keeps g valid while the GIL is released */
    CFL_BLOCKING(&self->h, err = rd_kafka_list_groups(self->h.rk, g, &gl, timeout_ms));
    Py_DECREF(group);
    if (err) {
        char reason[512];
        snprintf(reason, sizeof(reason), "Failed to list groups: %s", rd_kafka_err2str(err));
        return cfl_raise(st, err, reason);
    }
    PyObject *list = PyList_New(gl->group_cnt);
    for (int i = 0; list != NULL && i < gl->group_cnt; i++) {
        const struct rd_kafka_group_info *gi = &gl->groups[i];
        PyObject *members = PyList_New(gi->member_cnt);
        for (int j = 0; members != NULL && j < gi->member_cnt; j++) {
            const struct rd_kafka_group_member_info *m = &gi->members[j];
            PyObject *mo = Py_BuildValue("(NNNNN)", text(m->member_id), text(m->client_id), text(m->client_host),
                                         bytes_or_none(m->member_metadata, m->member_metadata_size),
                                         bytes_or_none(m->member_assignment, m->member_assignment_size));
            if (mo == NULL)
                Py_CLEAR(members);
            else
                PyList_SET_ITEM(members, j, mo);
        }
        PyObject *go = Py_BuildValue("(NNNNN(iNi)N)", text(gi->group), cfl_error_or_none(st, gi->err, NULL),
                                     text(gi->state), text(gi->protocol_type), text(gi->protocol),
                                     (int)gi->broker.id, text(gi->broker.host), (int)gi->broker.port, members);
        if (go == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, go);
    }
    rd_kafka_group_list_destroy(gl);
    return list;
}

static PyObject *Admin_list_topics(AdminObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"topic", "timeout", NULL};
    const char *topic = NULL;
    float timeout = -1.0f;
    /* Upstream's parser (its messages, and no None timeout), then the shared code. */
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|zf", kwlist, &topic, &timeout) || handle_open(self) < 0)
        return NULL;
    return cfl_list_topics(&self->h, args, kwargs);
}

static PyObject *Admin_set_sasl_credentials(AdminObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"username", "password", NULL};
    const char *user, *password;
    /* Upstream's parser messages ("argument 1 must be str, not None"), then the shared code. */
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ss", kwlist, &user, &password) || handle_open(self) < 0)
        return NULL;
    return cfl_handle_set_sasl_credentials(&self->h, args, kwargs);
}

/* cluster_id(timeout=-1): the cluster id, waiting up to timeout seconds (negative: no limit)
 * for the broker metadata that carries it. */
static PyObject *Admin_cluster_id(AdminObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"timeout", NULL};
    float timeout = -1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|f", kwlist, &timeout) || handle_open(self) < 0 ||
        usable(self) < 0)
        return NULL;
    double ms = (timeout < 0 || isnan(timeout)) ? -1.0 : ceil((double)timeout * 1000.0);
    return cfl_handle_wait_cluster_id(&self->h, ms > INT_MAX ? INT_MAX : (int)ms);
}

/* len(): requests and messages waiting in librdkafka's queues (0 once closed). */
static Py_ssize_t Admin_len(AdminObject *self) {
    /* Once close() began on another thread, rk may be freed as soon as this use is not counted
     * by it: 0, as for a closed client. */
    if (CFL_LOAD_PTR(&self->h.rk) == NULL || cfl_handle_closing(&self->h))
        return 0;
    return (Py_ssize_t)rd_kafka_outq_len(self->h.rk);
}

/* _check_open(): RuntimeError when closed, as a request would raise (the Python layer checks its
 * arguments first, then this, then the option ranges: upstream's order). */
static PyObject *Admin_check_open(AdminObject *self, PyObject *unused) {
    if (usable(self) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* __enter__ returns the client, open or closed (upstream's behaviour). */
static PyObject *Admin_enter(AdminObject *self, PyObject *unused) { return Py_NewRef((PyObject *)self); }

static int poll_step(Handle *h, int slice_ms, void *ctx) {
    int n = rd_kafka_poll(h->rk, slice_ms);
    *(int *)ctx += n;
    return n;
}

static PyObject *Admin_poll(AdminObject *self, PyObject *args, PyObject *kwargs) {
    /* Upstream's parser: a required real number of seconds (negative: no limit), never None. */
    static char *kwlist[] = {"timeout", NULL};
    float timeout = -1.0f;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "f", kwlist, &timeout) || usable(self) < 0)
        return NULL;
    int timeout_ms = (timeout < 0 || isnan(timeout)) ? -1 : (timeout * 1000.0 >= (double)(INT_MAX - 1) ? INT_MAX - 1
                                                                                   : (int)ceil(timeout * 1000.0));
    int ops = 0;
    Py_ssize_t served = 0;
    if (cfl_serve(&self->h, timeout_ms, poll_step, &ops, &served) < 0)
        return NULL;
    return PyLong_FromSsize_t(served > ops ? served : ops);
}

/* ---- lifetime -------------------------------------------------------------------------- */

#ifndef _WIN32
typedef struct {
    rd_kafka_t *rk;
    PyObject *owner; /* strong: the background thread may still pass it to admin_event_cb */
} DestroyJob;

/* Tear down rk, then let go of the client: until rd_kafka_destroy() returns, librdkafka's
 * background thread can still run admin_event_cb with the client as its opaque. */
static void *destroy_in_thread(void *arg) {
    DestroyJob *job = (DestroyJob *)arg;
    rd_kafka_destroy(job->rk);
    PyGILState_STATE gs = PyGILState_Ensure();
    Py_DECREF(job->owner);
    PyGILState_Release(gs);
    PyMem_RawFree(job);
    return NULL;
}
#endif

/* Release librdkafka and fail what is still pending. GIL held. */
static void admin_shutdown(AdminObject *self, const char *why) {
    if (self->h.rk != NULL) {
        /* First let requests being sent on other threads (SEND) leave: they use bgq. */
        cfl_handle_quiesce(&self->h);
        if (self->bgq != NULL) {
            rd_kafka_queue_destroy(self->bgq);
            self->bgq = NULL;
        }
#ifndef _WIN32
        if (in_event_cb) {
            /* On librdkafka's background thread (a done-callback dropped the last reference):
             * rd_kafka_destroy() cannot run here, so a helper thread does it. */
            DestroyJob *job = PyMem_RawMalloc(sizeof(*job));
            pthread_t th;
            CFL_STORE_INT(&self->h.no_callbacks, 1);
            if (job != NULL) {
                job->rk = self->h.rk;
                job->owner = Py_NewRef((PyObject *)self);
                if (pthread_create(&th, NULL, destroy_in_thread, job) == 0) {
                    pthread_detach(th);
                } else {
                    Py_DECREF(job->owner); /* not the last reference: the caller holds one */
                    PyMem_RawFree(job);
                }
            }
            /* else: leaked rather than destroyed from its own thread (which would abort) */
            CFL_STORE_PTR(&self->h.rk, NULL);
        }
#endif
        cfl_handle_destroy(&self->h);
    }
    CFL_STORE_INT(&self->h.closed, 1);
    pending_fail_all(self, why);
}

static PyObject *Admin_close(AdminObject *self, PyObject *unused) {
    if (CFL_LOAD_PTR(&self->h.rk) == NULL) {
        pending_fail_all(self, "AdminClient closed");
        Py_RETURN_TRUE;
    }
    CflUse life;
    if (cfl_handle_may_close(&self->h) < 0 || cfl_lifecycle_claim(&self->h, &life) < 0)
        return NULL;
    admin_shutdown(self, "AdminClient closed"); /* only fails what is pending if closed meanwhile */
    cfl_lifecycle_release(&life);
    Py_RETURN_TRUE;
}

static PyObject *Admin_exit(AdminObject *self, PyObject *args) {
    PyObject *r = Admin_close(self, NULL);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

/* Results are delivered to admin_event_cb on librdkafka's background thread; the handle is the
 * conf opaque (cfl_handle_set_callbacks), so the callback receives it. */
static void admin_before_new(Handle *h, rd_kafka_conf_t *conf) {
    rd_kafka_conf_set_background_event_cb(conf, admin_event_cb);
}

static int Admin_init(AdminObject *self, PyObject *args, PyObject *kwargs) {
    if (self->pending == NULL && (self->pending = PyDict_New()) == NULL)
        return -1;
    if (self->future_type == NULL) {
        PyObject *mod = PyImport_ImportModule("concurrent.futures");
        if (mod == NULL)
            return -1;
        self->future_type = PyObject_GetAttrString(mod, "Future");
        Py_DECREF(mod);
        if (self->future_type == NULL)
            return -1;
    }
    if (cfl_handle_start(&self->h, RD_KAFKA_PRODUCER, args, kwargs, admin_before_new) < 0)
        return -1;
    self->bgq = rd_kafka_queue_get_background(self->h.rk);
    if (self->bgq == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "librdkafka has no background queue");
        PyObject *exc = CFL_FETCH_EXC();
        admin_shutdown(self, "AdminClient failed to start");
        CFL_RESTORE_EXC(exc);
        return -1;
    }
    return 0;
}

static int Admin_traverse(AdminObject *self, visitproc visit, void *arg) {
    /* `pending` is deliberately not visited: a request in flight keeps what its future reaches
     * (often this client, through done-callbacks) alive until its result arrives, rather than
     * letting the cycle collector tear the futures apart. Every pending entry is removed when
     * its result, timeout or close() comes, which breaks such cycles. */
    Py_VISIT(self->future_type);
    return cfl_handle_traverse(&self->h, visit, arg);
}

static int Admin_clear(AdminObject *self) {
    /* pending is kept: the background thread may still look a result up in it. */
    Py_CLEAR(self->future_type);
    return cfl_handle_clear(&self->h);
}

#ifndef _WIN32
/* The last reference went away on librdkafka's background thread: librdkafka is torn down from
 * a thread of our own, and only then is the object freed, so results still queued for the
 * background thread never meet freed memory. */
static void *finish_dealloc_in_thread(void *arg) {
    AdminObject *self = (AdminObject *)arg;
    rd_kafka_t *rk = self->h.rk;
    self->h.rk = NULL;
    rd_kafka_destroy(rk);
    PyGILState_STATE gs = PyGILState_Ensure();
    Py_CLEAR(self->pending);
    Py_CLEAR(self->future_type);
    cfl_handle_dealloc(&self->h);
    PyGILState_Release(gs);
    return NULL;
}
#endif

static void Admin_dealloc(AdminObject *self) {
    PyObject_GC_UnTrack(self);
    if (self->h.weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
        self->h.weakreflist = NULL;
    }
#ifndef _WIN32
    if (in_event_cb && self->h.rk != NULL) {
        CFL_STORE_INT(&self->h.no_callbacks, 1);
        CFL_STORE_INT(&self->h.closed, 1);
        pending_fail_all(self, "AdminClient was garbage collected");
        if (self->bgq != NULL) {
            rd_kafka_queue_destroy(self->bgq);
            self->bgq = NULL;
        }
        pthread_t th;
        if (pthread_create(&th, NULL, finish_dealloc_in_thread, self) == 0) {
            pthread_detach(th);
            return;
        }
        self->h.rk = NULL; /* no thread to tear it down: leak it rather than abort */
    }
#endif
    admin_shutdown(self, "AdminClient was garbage collected");
    Py_CLEAR(self->pending);
    Py_CLEAR(self->future_type);
    cfl_handle_dealloc(&self->h);
}

/* Every method that reaches rk runs as a use of the client (see CFL_GUARD_O). */
CFL_GUARD_O(Admin_create_topics)
CFL_GUARD_O(Admin_delete_topics)
CFL_GUARD_O(Admin_create_partitions)
CFL_GUARD_O(Admin_describe_configs)
CFL_GUARD_O(Admin_alter_configs)
CFL_GUARD_O(Admin_incremental_alter_configs)
CFL_GUARD_O(Admin_create_acls)
CFL_GUARD_O(Admin_describe_acls)
CFL_GUARD_O(Admin_delete_acls)
CFL_GUARD_O(Admin_list_consumer_groups)
CFL_GUARD_O(Admin_describe_consumer_groups)
CFL_GUARD_O(Admin_delete_consumer_groups)
CFL_GUARD_O(Admin_list_consumer_group_offsets)
CFL_GUARD_O(Admin_alter_consumer_group_offsets)
CFL_GUARD_O(Admin_describe_topics)
CFL_GUARD_O(Admin_describe_cluster)
CFL_GUARD_O(Admin_list_offsets)
CFL_GUARD_O(Admin_delete_records)
CFL_GUARD_O(Admin_elect_leaders)
CFL_GUARD_O(Admin_describe_user_scram_credentials)
CFL_GUARD_O(Admin_alter_user_scram_credentials)
CFL_GUARD_KW(Admin_list_groups)
CFL_GUARD_KW(Admin_poll)
CFL_GUARD_KW(Admin_list_topics)
CFL_GUARD_KW(Admin_set_sasl_credentials)
CFL_GUARD_KW(Admin_cluster_id)
CFL_GUARD_LEN(Admin_len)

#define ADMIN_REQ(name, doc)                                                                      \
    { "_" #name, (PyCFunction)Admin_##name##_guarded, METH_VARARGS, doc }

static PyMethodDef Admin_methods[] = {
    ADMIN_REQ(create_topics, "_create_topics(future, [(name, num_partitions, replication_factor, "
                             "replica_assignment, config)], options)"),
    ADMIN_REQ(delete_topics, "_delete_topics(future, [topic], options)"),
    ADMIN_REQ(create_partitions, "_create_partitions(future, [(topic, new_total_count, replica_assignment)], "
                                 "options)"),
    ADMIN_REQ(describe_configs, "_describe_configs(future, [(restype, name)], options)"),
    ADMIN_REQ(alter_configs, "_alter_configs(future, [(restype, name, {name: value})], options)"),
    ADMIN_REQ(incremental_alter_configs,
              "_incremental_alter_configs(future, [(restype, name, [(name, op, value)])], options)"),
    ADMIN_REQ(create_acls, "_create_acls(future, [acl], options)"),
    ADMIN_REQ(describe_acls, "_describe_acls(future, acl_filter, options)"),
    ADMIN_REQ(delete_acls, "_delete_acls(future, [acl_filter], options)"),
    ADMIN_REQ(list_consumer_groups, "_list_consumer_groups(future, options)"),
    ADMIN_REQ(describe_consumer_groups, "_describe_consumer_groups(future, [group_id], options)"),
    ADMIN_REQ(delete_consumer_groups, "_delete_consumer_groups(future, [group_id], options)"),
    ADMIN_REQ(list_consumer_group_offsets,
              "_list_consumer_group_offsets(future, [(group_id, [TopicPartition] or None)], options)"),
    ADMIN_REQ(alter_consumer_group_offsets,
              "_alter_consumer_group_offsets(future, [(group_id, [TopicPartition])], options)"),
    ADMIN_REQ(describe_topics, "_describe_topics(future, [topic], options)"),
    ADMIN_REQ(describe_cluster, "_describe_cluster(future, options)"),
    ADMIN_REQ(list_offsets, "_list_offsets(future, [TopicPartition(offset=spec)], options)"),
    ADMIN_REQ(delete_records, "_delete_records(future, [TopicPartition(offset=before)], options)"),
    ADMIN_REQ(elect_leaders, "_elect_leaders(future, election_type, [TopicPartition] or None, options)"),
    ADMIN_REQ(describe_user_scram_credentials, "_describe_user_scram_credentials(future, [user], options)"),
    ADMIN_REQ(alter_user_scram_credentials,
              "_alter_user_scram_credentials(future, [(user, mechanism[, iterations, password, salt])], options)"),
    {"_list_groups", (PyCFunction)(void (*)(void))Admin_list_groups_guarded, METH_VARARGS | METH_KEYWORDS,
     "_list_groups(group=None, timeout=-1) -> list of tuples\n\nThe groups the brokers know (classic API)."},
    {"poll", (PyCFunction)(void (*)(void))Admin_poll_guarded, METH_VARARGS | METH_KEYWORDS,
     "poll(timeout) -> int\n\nServe error_cb, stats_cb, throttle_cb and logger callbacks. Admin results do "
     "not need it: they arrive on librdkafka's background thread."
     "\n\n"
     ":param timeout: seconds to wait; negative waits without limit.\n"
     ":returns: the number of events served (int).\n"
     CFL_DOC_RAISES_CLOSED},
    {"close", (PyCFunction)Admin_close, METH_NOARGS,
     "close() -> True\n\nRelease the client. Futures still pending fail with KafkaException(_DESTROY). "
     "Idempotent."
     "\n\n"
     ":returns: True.\n"},
    {"__exit__", (PyCFunction)Admin_exit, METH_VARARGS, NULL},
    {"__enter__", (PyCFunction)Admin_enter, METH_NOARGS, NULL},
    {"_check_open", (PyCFunction)Admin_check_open, METH_NOARGS,
     "_check_open($self, /)\n--\n\nRaise RuntimeError if the client is closed."},
    {"list_topics", (PyCFunction)(void (*)(void))Admin_list_topics_guarded, METH_VARARGS | METH_KEYWORDS,
     "list_topics($self, /, topic=None, timeout=-1)\n--\n\nReturns ClusterMetadata: brokers, topics and "
     "partitions (one topic if given)."
     "\n\n"
     ":param topic: only this topic, or None for all.\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     ":returns: a ClusterMetadata.\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"set_sasl_credentials", (PyCFunction)(void (*)(void))Admin_set_sasl_credentials_guarded, METH_VARARGS | METH_KEYWORDS,
     "set_sasl_credentials($self, /, username, password)\n--\n\nSet the SASL PLAIN/SCRAM credentials used on "
     "the next authentication."
     "\n\n"
     ":param username: the SASL user name (str).\n"
     ":param password: the SASL password (str).\n"
     CFL_DOC_RAISES_KAFKA CFL_DOC_RAISES_CLOSED},
    {"cluster_id", (PyCFunction)(void (*)(void))Admin_cluster_id_guarded, METH_VARARGS | METH_KEYWORDS,
     "cluster_id($self, /, timeout=-1)\n--\n\nReturns str: the cluster id, waiting up to timeout seconds "
     "(negative: no limit). Raises KafkaException(_TIMED_OUT) when it is not known in time."
     "\n\n"
     ":param timeout: seconds to wait; None or a negative number waits without limit.\n"
     ":returns: the cluster id (str).\n"
     ":raises ~confluent_kafka.KafkaException: _TIMED_OUT when it is not known in time.\n"
     CFL_DOC_RAISES_CLOSED},
    {"__reduce__", (PyCFunction)cfl_handle_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyMemberDef Admin_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(AdminObject, h) + offsetof(Handle, weakreflist), READONLY},
    {NULL},
};

static PyType_Slot Admin_slots[] = {
    {Py_tp_doc, "_AdminClientImpl(conf=None, **kwargs)\n\nThe C core of confluent_kafka.admin.AdminClient: each "
                "request resolves the concurrent.futures.Future it is given from librdkafka's background "
                "thread."},
    {Py_tp_new, cfl_handle_new},
    {Py_tp_init, Admin_init},
    {Py_tp_dealloc, Admin_dealloc},
    {Py_tp_traverse, Admin_traverse},
    {Py_tp_clear, Admin_clear},
    {Py_tp_methods, Admin_methods},
    {Py_tp_members, Admin_members},
    {Py_sq_length, Admin_len_guarded},
    {0, NULL},
};

static PyType_Spec Admin_spec = {
    .name = CFL_QUALNAME("_AdminClientImpl"),
    .basicsize = sizeof(AdminObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = Admin_slots,
};

int cfl_admin_init_type(PyObject *module, cfl_state *st) {
    if (cfl_admin_types_init(module) < 0)
        return -1;
    st->AdminClientImplType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Admin_spec, NULL);
    if (st->AdminClientImplType == NULL)
        return -1;
    return PyModule_AddType(module, st->AdminClientImplType);
}
