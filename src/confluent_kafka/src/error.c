/* KafkaError and KafkaException. */
#include "error.h"

#include <stdarg.h>

/* ---- code names and texts ---------------------------------------------------------------- */

/* Kafka protocol error codes newer than some librdkafka this module may be built against, with
 * the name and text a newer librdkafka gives them: an error the broker sends with such a code
 * reads the same whichever librdkafka is linked. */
static const struct {
    int code;
    const char *name, *text;
} newer_codes[] = {
    {103, "INCONSISTENT_TOPIC_ID", "Broker: The log's topic ID did not match the topic ID in the request"},
    {114, "MISMATCHED_ENDPOINT_TYPE", "Broker: The request was sent to an endpoint of the wrong type"},
    {115, "UNSUPPORTED_ENDPOINT_TYPE", "Broker: This endpoint type is not supported yet"},
    {116, "UNKNOWN_CONTROLLER_ID", "Broker: This controller ID is not known"},
    {119, "INVALID_REGISTRATION", "Broker: The controller has considered the broker registration to be invalid"},
    {120, "TRANSACTION_ABORTABLE", "Broker: The server encountered an error with the transaction"},
    {121, "INVALID_RECORD_STATE", "Broker: The record state is invalid"},
    {122, "SHARE_SESSION_NOT_FOUND", "Broker: The share session was not found"},
    {123, "INVALID_SHARE_SESSION_EPOCH", "Broker: The share session epoch is invalid"},
    {124, "FENCED_STATE_EPOCH", "Broker: The share-group state epoch did not match"},
    {125, "INVALID_VOTER_KEY", "Broker: The voter key doesn't match the receiving replica's key"},
    {126, "DUPLICATE_VOTER", "Broker: The voter is already part of the set of voters"},
    {127, "VOTER_NOT_FOUND", "Broker: The voter is not part of the set of voters"},
    {128, "INVALID_REGULAR_EXPRESSION", "Broker: The regular expression is not valid"},
    {130, "STREAMS_INVALID_TOPOLOGY", "Broker: The supplied topology is invalid"},
    {131, "STREAMS_INVALID_TOPOLOGY_EPOCH", "Broker: The supplied topology epoch is invalid"},
    {132, "STREAMS_TOPOLOGY_FENCED", "Broker: The supplied topology epoch is outdated"},
    {133, "SHARE_SESSION_LIMIT_REACHED", "Broker: The limit of share sessions has been reached"},
};
#define N_NEWER_CODES (sizeof(newer_codes) / sizeof(newer_codes[0]))

/* librdkafka's description of a code it knows by name, or NULL. */
static const struct rd_kafka_err_desc *known_desc(int code) {
    const struct rd_kafka_err_desc *descs;
    size_t cnt;
    rd_kafka_get_err_descs(&descs, &cnt);
    long idx = (long)code - (long)RD_KAFKA_RESP_ERR__BEGIN;
    if (idx >= 0 && (size_t)idx < cnt && descs[idx].name != NULL && descs[idx].code == code)
        return &descs[idx];
    for (size_t i = 0; i < cnt; i++) /* not laid out by code: look it up */
        if (descs[i].name != NULL && descs[i].code == code)
            return &descs[i];
    return NULL;
}

static int newer_index(int code) {
    if (known_desc(code) != NULL)
        return -1; /* the linked librdkafka knows it: its name and text win */
    for (size_t i = 0; i < N_NEWER_CODES; i++)
        if (newer_codes[i].code == code)
            return (int)i;
    return -1;
}

const char *cfl_err_name(int code) {
    int i = newer_index(code);
    return i >= 0 ? newer_codes[i].name : rd_kafka_err2name((rd_kafka_resp_err_t)code);
}

const char *cfl_err_text(int code) {
    int i = newer_index(code);
    return i >= 0 ? newer_codes[i].text : rd_kafka_err2str((rd_kafka_resp_err_t)code);
}

/* ---- KafkaError --------------------------------------------------------------------------- */

static KafkaErrorObject *error_alloc(PyTypeObject *type, rd_kafka_resp_err_t code, PyObject *reason) {
    KafkaErrorObject *self = (KafkaErrorObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    CFL_TSAN_FRESH(self);
    self->code = code;
    self->reason = Py_XNewRef(reason);
    return self;
}

PyObject *cfl_error_new(cfl_state *st, rd_kafka_resp_err_t code, const char *reason) {
    PyObject *r = NULL;
    if (reason != NULL && *reason != '\0') {
        r = PyUnicode_DecodeUTF8(reason, (Py_ssize_t)strlen(reason), "replace");
        if (r == NULL)
            return NULL;
    }
    KafkaErrorObject *self = error_alloc(st->KafkaErrorType, code, r);
    Py_XDECREF(r);
    return (PyObject *)self;
}

static PyObject *error_newv(cfl_state *st, rd_kafka_resp_err_t code, const char *fmt, va_list ap) {
    PyObject *r = PyUnicode_FromFormatV(fmt, ap);
    if (r == NULL)
        return NULL;
    KafkaErrorObject *self = error_alloc(st->KafkaErrorType, code, r);
    Py_DECREF(r);
    return (PyObject *)self;
}

PyObject *cfl_error_newf(cfl_state *st, rd_kafka_resp_err_t code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PyObject *err = error_newv(st, code, fmt, ap);
    va_end(ap);
    return err;
}

PyObject *cfl_error_or_none(cfl_state *st, rd_kafka_resp_err_t code, const char *reason) {
    if (code == RD_KAFKA_RESP_ERR_NO_ERROR)
        Py_RETURN_NONE;
    return cfl_error_new(st, code, reason);
}

PyObject *cfl_error_from_rd(cfl_state *st, const rd_kafka_error_t *error) {
    KafkaErrorObject *self =
        (KafkaErrorObject *)cfl_error_new(st, rd_kafka_error_code(error), rd_kafka_error_string(error));
    if (self == NULL)
        return NULL;
    self->fatal = (char)rd_kafka_error_is_fatal(error);
    self->retriable = (char)rd_kafka_error_is_retriable(error);
    self->txn_requires_abort = (char)rd_kafka_error_txn_requires_abort(error);
    return (PyObject *)self;
}

void cfl_raise_error_obj(cfl_state *st, PyObject *kafka_error) {
    PyObject *exc = PyObject_CallOneArg(st->KafkaException, kafka_error);
    if (exc != NULL) {
        PyErr_SetObject(st->KafkaException, exc);
        Py_DECREF(exc);
    }
}

static PyObject *raise_new(cfl_state *st, PyObject *err) {
    if (err != NULL) {
        cfl_raise_error_obj(st, err);
        Py_DECREF(err);
    }
    return NULL;
}

PyObject *cfl_raise(cfl_state *st, rd_kafka_resp_err_t code, const char *reason) {
    return raise_new(st, cfl_error_new(st, code, reason));
}

PyObject *cfl_raise_fmt(cfl_state *st, rd_kafka_resp_err_t code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PyObject *err = error_newv(st, code, fmt, ap);
    va_end(ap);
    return raise_new(st, err);
}

PyObject *cfl_raise_prefixed(cfl_state *st, rd_kafka_resp_err_t code, const char *prefix) {
    return cfl_raise_fmt(st, code, "%s: %s", prefix, cfl_err_text(code));
}

PyObject *cfl_raise_rd(cfl_state *st, rd_kafka_error_t *error) {
    PyObject *err = cfl_error_from_rd(st, error);
    rd_kafka_error_destroy(error);
    return raise_new(st, err);
}

/* KafkaError.__new__ makes NO_ERROR whatever it is given; __init__ sets the fields, so a
 * subclass may call it with arguments of its own choosing (or not at all). */
static PyObject *KafkaError_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    return (PyObject *)error_alloc(type, RD_KAFKA_RESP_ERR_NO_ERROR, NULL);
}

static int KafkaError_init(KafkaErrorObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"error", "reason", "fatal", "retriable", "txn_requires_abort", NULL};
    int code, fatal = 0, retriable = 0, txn_requires_abort = 0;
    PyObject *reason = Py_None, *kw = kwargs, *code_kw = NULL;
    if (kwargs != NULL && (code_kw = PyDict_GetItemString(kwargs, "code")) != NULL &&
        PyDict_GetItemString(kwargs, "error") == NULL && PyTuple_GET_SIZE(args) == 0) {
        /* The type stubs name the first parameter `code`: take that spelling too. */
        if ((kw = PyDict_Copy(kwargs)) == NULL || PyDict_SetItemString(kw, "error", code_kw) < 0 ||
            PyDict_DelItemString(kw, "code") < 0) {
            Py_XDECREF(kw);
            return -1;
        }
    }
    int ok = PyArg_ParseTupleAndKeywords(args, kw, "i|Oiii", kwlist, &code, &reason, &fatal, &retriable,
                                         &txn_requires_abort);
    if (kw != kwargs)
        Py_DECREF(kw);
    if (!ok)
        return -1;
    if (reason != Py_None && !PyUnicode_Check(reason)) {
        if (PyTuple_GET_SIZE(args) >= 2)
            PyErr_Format(PyExc_TypeError, "argument 2 must be str or None, not %.50s", Py_TYPE(reason)->tp_name);
        else
            PyErr_Format(PyExc_TypeError, "argument 'reason' must be str or None, not %.50s",
                         Py_TYPE(reason)->tp_name);
        return -1;
    }
    PyObject *old;
    Py_BEGIN_CRITICAL_SECTION(self); /* __init__ again, while another thread reads the error */
    self->code = (rd_kafka_resp_err_t)code;
    old = self->reason;
    self->reason = reason == Py_None ? NULL : Py_NewRef(reason);
    self->fatal = (char)(fatal != 0);
    self->retriable = (char)(retriable != 0);
    self->txn_requires_abort = (char)(txn_requires_abort != 0);
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old);
    return 0;
}

static int KafkaError_traverse(KafkaErrorObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static void KafkaError_dealloc(KafkaErrorObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->reason);
    CFL_TSAN_FRESH(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *KafkaError_code(KafkaErrorObject *self, PyObject *unused) {
    return PyLong_FromLong(self->code);
}

static PyObject *KafkaError_name(KafkaErrorObject *self, PyObject *unused) {
    return PyUnicode_FromString(cfl_err_name(self->code));
}

/* The text: the reason given, or the code's own description. */
static PyObject *error_text(KafkaErrorObject *self) {
    PyObject *reason;
    int code;
    Py_BEGIN_CRITICAL_SECTION(self);
    reason = Py_XNewRef(self->reason);
    code = self->code;
    Py_END_CRITICAL_SECTION();
    if (reason != NULL)
        return reason;
    return PyUnicode_FromString(cfl_err_text(code));
}

static PyObject *KafkaError_str_method(KafkaErrorObject *self, PyObject *unused) { return error_text(self); }

static PyObject *KafkaError_fatal(KafkaErrorObject *self, PyObject *unused) {
    return PyBool_FromLong(self->fatal);
}

static PyObject *KafkaError_retriable(KafkaErrorObject *self, PyObject *unused) {
    return PyBool_FromLong(self->retriable);
}

static PyObject *KafkaError_txn_requires_abort(KafkaErrorObject *self, PyObject *unused) {
    return PyBool_FromLong(self->txn_requires_abort);
}

/* str() and repr(): KafkaError{[FATAL,]code=NAME,val=N,str="text"}. The text goes in as a str
 * (%U), never through UTF-8: a reason holding lone surrogates must not make repr() raise
 * (loggers and tracebacks call it). */
static PyObject *KafkaError_repr(KafkaErrorObject *self) {
    PyObject *text = error_text(self);
    if (text == NULL)
        return NULL;
    PyObject *s = PyUnicode_FromFormat("KafkaError{%scode=%s,val=%d,str=\"%U\"}", self->fatal ? "FATAL," : "",
                                       cfl_err_name(self->code), (int)self->code, text);
    Py_DECREF(text);
    return s;
}

/* Rebuilt by KafkaError(code, text, fatal, retriable, txn_requires_abort). */
static PyObject *KafkaError_reduce(KafkaErrorObject *self, PyObject *unused) {
    PyObject *text = error_text(self);
    if (text == NULL)
        return NULL;
    PyObject *r = Py_BuildValue("O(iNiii)", Py_TYPE(self), (int)self->code, text, (int)self->fatal,
                                (int)self->retriable, (int)self->txn_requires_abort);
    return r;
}

static Py_hash_t KafkaError_hash(KafkaErrorObject *self) {
    return self->code == -1 ? -2 : (Py_hash_t)self->code;
}

static PyObject *KafkaError_richcompare(KafkaErrorObject *self, PyObject *other, int op) {
    long a = (long)self->code, b;
    if (PyObject_TypeCheck(other, Py_TYPE(self)) ||
        (Py_TYPE(other)->tp_richcompare == Py_TYPE(self)->tp_richcompare)) {
        b = (long)((KafkaErrorObject *)other)->code;
    } else if (PyLong_Check(other)) {
        int overflow;
        b = PyLong_AsLongAndOverflow(other, &overflow);
        if (b == -1 && PyErr_Occurred())
            return NULL;
        if (overflow)
            b = overflow > 0 ? LONG_MAX : LONG_MIN;
    } else {
        Py_RETURN_NOTIMPLEMENTED;
    }
    Py_RETURN_RICHCOMPARE(a, b, op);
}

static PyMethodDef KafkaError_methods[] = {
    {"code", (PyCFunction)KafkaError_code, METH_NOARGS,
     "code($self, /)\n--\n\nThe error code, to compare with the KafkaError class attributes.\n\n"
     ":returns: the code\n:rtype: int"},
    {"name", (PyCFunction)KafkaError_name, METH_NOARGS,
     "name($self, /)\n--\n\nThe symbolic name of the code, e.g. ``'_MSG_TIMED_OUT'``.\n\n"
     ":returns: the name (``ERR_<n>?`` for a code nobody knows)\n:rtype: str"},
    {"str", (PyCFunction)KafkaError_str_method, METH_NOARGS,
     "str($self, /)\n--\n\nWhat went wrong, in words: the reason given, or the code's description.\n\n"
     ":returns: the text\n:rtype: str"},
    {"fatal", (PyCFunction)KafkaError_fatal, METH_NOARGS,
     "fatal($self, /)\n--\n\nWhether the client that reported this error can no longer be used.\n\n"
     ":returns: True for a fatal error\n:rtype: bool"},
    {"retriable", (PyCFunction)KafkaError_retriable, METH_NOARGS,
     "retriable($self, /)\n--\n\nWhether the failed operation may succeed when tried again.\n\n"
     ":returns: True when a retry may succeed\n:rtype: bool"},
    {"txn_requires_abort", (PyCFunction)KafkaError_txn_requires_abort, METH_NOARGS,
     "txn_requires_abort($self, /)\n--\n\nWhether the current transaction must be aborted "
     "(abort_transaction()) before a new one can begin. Only errors of the transactional producer API "
     "say so.\n\n:returns: True when the transaction must be aborted\n:rtype: bool"},
    {"__reduce__", (PyCFunction)KafkaError_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot KafkaError_slots[] = {
    {Py_tp_new, KafkaError_new},
    {Py_tp_init, KafkaError_init},
    {Py_tp_dealloc, KafkaError_dealloc},
    {Py_tp_traverse, KafkaError_traverse},
    {Py_tp_methods, KafkaError_methods},
    {Py_tp_str, KafkaError_repr},
    {Py_tp_repr, KafkaError_repr},
    {Py_tp_hash, KafkaError_hash},
    {Py_tp_richcompare, KafkaError_richcompare},
    {0, NULL},
};

static PyType_Spec KafkaError_spec = {
    .name = CFL_QUALNAME("KafkaError"),
    .basicsize = sizeof(KafkaErrorObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = KafkaError_slots,
};

static const char error_doc_head[] =
    "KafkaError(error, reason=None, fatal=False, retriable=False, txn_requires_abort=False)\n\n"
    "One error or event reported by the client or a broker: a code, a text and three flags. It is "
    "the ``args[0]`` of a :class:`~confluent_kafka.KafkaException`, the ``error()`` of a message that carries an error "
    "or an event, and what ``error_cb`` receives.\n\n"
    "It compares (``==``, ``<``, ...) and hashes like its integer code, so ``err == "
    "KafkaError._PARTITION_EOF`` reads naturally.\n\n"
    ":param int error: the error code, one of the constants below (or any int).\n"
    ":param str reason: the text; None uses the code's own description.\n"
    ":param bool fatal: the client that reported it can no longer be used.\n"
    ":param bool retriable: the failed operation may succeed when retried.\n"
    ":param bool txn_requires_abort: the current transaction must be aborted.\n\n"
    "Error and event codes (class attributes, ``int``); a leading underscore marks the client's "
    "own codes, the others are the broker's:\n\n";

/* One int class attribute per code, and the docstring that lists them with their descriptions. */
static int add_error_codes(PyTypeObject *type) {
    const struct rd_kafka_err_desc *descs;
    size_t cnt;
    rd_kafka_get_err_descs(&descs, &cnt);
    PyObject *lines = PyList_New(0);
    if (lines == NULL)
        return -1;
    for (size_t i = 0; i < cnt + N_NEWER_CODES; i++) {
        int code;
        const char *name, *text;
        if (i < cnt) {
            code = descs[i].code, name = descs[i].name, text = descs[i].desc;
            if (name == NULL || code == RD_KAFKA_RESP_ERR__BEGIN || code == RD_KAFKA_RESP_ERR__END)
                continue;
        } else {
            code = newer_codes[i - cnt].code, name = newer_codes[i - cnt].name, text = newer_codes[i - cnt].text;
            if (known_desc(code) != NULL)
                continue;
        }
        PyObject *v = PyLong_FromLong(code);
        int rc = v != NULL ? PyObject_SetAttrString((PyObject *)type, name, v) : -1;
        Py_XDECREF(v);
        PyObject *line = rc == 0 ? PyUnicode_FromFormat("* ``%s`` (%d): %s", name, code, text ? text : "") : NULL;
        if (line == NULL || PyList_Append(lines, line) < 0) {
            Py_XDECREF(line);
            Py_DECREF(lines);
            return -1;
        }
        Py_DECREF(line);
    }
    static const struct { const char *name; int code; } aliases[] = {
        /* Range markers and the names older clients used. */
        {"_BEGIN", RD_KAFKA_RESP_ERR__BEGIN},
        {"_END", RD_KAFKA_RESP_ERR__END},
        {"GROUP_LOAD_IN_PROGRESS", RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS},
        {"GROUP_COORDINATOR_NOT_AVAILABLE", RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE},
        {"NOT_COORDINATOR_FOR_GROUP", RD_KAFKA_RESP_ERR_NOT_COORDINATOR},
    };
    for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
        PyObject *v = PyLong_FromLong(aliases[i].code);
        if (v == NULL || PyObject_SetAttrString((PyObject *)type, aliases[i].name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(lines);
            return -1;
        }
        Py_DECREF(v);
    }
    PyObject *sep = PyUnicode_FromString("\n"), *body = sep ? PyUnicode_Join(sep, lines) : NULL;
    Py_XDECREF(sep);
    Py_DECREF(lines);
    PyObject *doc = body ? PyUnicode_FromFormat("%s%U\n", error_doc_head, body) : NULL;
    Py_XDECREF(body);
    int rc = doc ? PyObject_SetAttrString((PyObject *)type, "__doc__", doc) : -1;
    Py_XDECREF(doc);
    return rc;
}

int cfl_error_init_types(PyObject *module, cfl_state *st) {
    st->KafkaErrorType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &KafkaError_spec, NULL);
    if (st->KafkaErrorType == NULL || add_error_codes(st->KafkaErrorType) < 0)
        return -1;
    if (PyModule_AddType(module, st->KafkaErrorType) < 0)
        return -1;

    st->KafkaException = PyErr_NewExceptionWithDoc(
        CFL_QUALNAME("KafkaException"),
        "KafkaException(*args)\n\nRaised for Kafka and client errors. ``args[0]`` is the "
        ":class:`~confluent_kafka.KafkaError` that says what failed; ``str()`` of the exception is ``str()`` of "
        "that error.",
        PyExc_Exception, NULL);
    if (st->KafkaException == NULL)
        return -1;
    return PyModule_AddObjectRef(module, "KafkaException", st->KafkaException);
}
