/* KafkaError and KafkaException. */
#include "error.h"


static KafkaErrorObject *error_alloc(PyTypeObject *type, rd_kafka_resp_err_t code, PyObject *reason) {
    KafkaErrorObject *self = (KafkaErrorObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
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
    if (self != NULL && code == RD_KAFKA_RESP_ERR__FATAL)
        self->fatal = 1;
    return (PyObject *)self;
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

PyObject *cfl_raise(cfl_state *st, rd_kafka_resp_err_t code, const char *reason) {
    PyObject *err = cfl_error_new(st, code, reason);
    if (err != NULL) {
        cfl_raise_error_obj(st, err);
        Py_DECREF(err);
    }
    return NULL;
}

PyObject *cfl_raise_rd(cfl_state *st, rd_kafka_error_t *error) {
    PyObject *err = cfl_error_from_rd(st, error);
    rd_kafka_error_destroy(error);
    if (err != NULL) {
        cfl_raise_error_obj(st, err);
        Py_DECREF(err);
    }
    return NULL;
}

static PyObject *KafkaError_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"code", "reason", "fatal", "retriable", "txn_requires_abort", NULL};
    int code;
    PyObject *reason = Py_None;
    int fatal = 0, retriable = 0, txn_requires_abort = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|Oppp:KafkaError", kwlist, &code, &reason,
                                     &fatal, &retriable, &txn_requires_abort))
        return NULL;
    if (reason != Py_None && !PyUnicode_Check(reason)) {
        PyErr_Format(PyExc_TypeError, "KafkaError reason must be str or None, not %.100s",
                     Py_TYPE(reason)->tp_name);
        return NULL;
    }
    KafkaErrorObject *self =
        error_alloc(type, (rd_kafka_resp_err_t)code, reason == Py_None ? NULL : reason);
    if (self == NULL)
        return NULL;
    self->fatal = (char)(fatal || code == RD_KAFKA_RESP_ERR__FATAL);
    self->retriable = (char)retriable;
    self->txn_requires_abort = (char)txn_requires_abort;
    return (PyObject *)self;
}

static int KafkaError_traverse(KafkaErrorObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static void KafkaError_dealloc(KafkaErrorObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->reason);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *KafkaError_code(KafkaErrorObject *self, PyObject *unused) {
    return PyLong_FromLong(self->code);
}

static PyObject *KafkaError_name(KafkaErrorObject *self, PyObject *unused) {
    return PyUnicode_FromString(rd_kafka_err2name(self->code));
}

static PyObject *KafkaError_str(KafkaErrorObject *self) {
    if (self->reason != NULL)
        return Py_NewRef(self->reason);
    return PyUnicode_FromString(rd_kafka_err2str(self->code));
}

static PyObject *KafkaError_str_method(KafkaErrorObject *self, PyObject *unused) {
    return KafkaError_str(self);
}

static PyObject *KafkaError_fatal(KafkaErrorObject *self, PyObject *unused) {
    return PyBool_FromLong(self->fatal);
}

static PyObject *KafkaError_retriable(KafkaErrorObject *self, PyObject *unused) {
    return PyBool_FromLong(self->retriable);
}

static PyObject *KafkaError_txn_requires_abort(KafkaErrorObject *self, PyObject *unused) {
    return PyBool_FromLong(self->txn_requires_abort);
}

static PyObject *KafkaError_repr(KafkaErrorObject *self) {
    /* The reason as a str (%U), never through UTF-8: a reason holding lone surrogates must
     * not make repr() raise (loggers and tracebacks call it). */
    if (self->reason != NULL)
        return PyUnicode_FromFormat("KafkaError{code=%s,val=%d,str=\"%U\"}",
                                    rd_kafka_err2name(self->code), (int)self->code, self->reason);
    return PyUnicode_FromFormat("KafkaError{code=%s,val=%d,str=\"%s\"}", rd_kafka_err2name(self->code),
                                (int)self->code, rd_kafka_err2str(self->code));
}

static PyObject *KafkaError_reduce(KafkaErrorObject *self, PyObject *unused) {
    return Py_BuildValue("O(iOOOO)", Py_TYPE(self), (int)self->code,
                         self->reason ? self->reason : Py_None, self->fatal ? Py_True : Py_False,
                         self->retriable ? Py_True : Py_False,
                         self->txn_requires_abort ? Py_True : Py_False);
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
    {"code", (PyCFunction)KafkaError_code, METH_NOARGS, "code($self, /)\n--\n\nThe error code (an int, see the class attributes)."},
    {"name", (PyCFunction)KafkaError_name, METH_NOARGS, "name($self, /)\n--\n\nThe symbolic name of the code, e.g. '_MSG_TIMED_OUT'."},
    {"str", (PyCFunction)KafkaError_str_method, METH_NOARGS, "str($self, /)\n--\n\nA human readable description."},
    {"fatal", (PyCFunction)KafkaError_fatal, METH_NOARGS, "fatal($self, /)\n--\n\nTrue if the client instance is unusable after this error."},
    {"retriable", (PyCFunction)KafkaError_retriable, METH_NOARGS, "retriable($self, /)\n--\n\nTrue if the operation may succeed when retried."},
    {"txn_requires_abort", (PyCFunction)KafkaError_txn_requires_abort, METH_NOARGS,
     "txn_requires_abort($self, /)\n--\n\nTrue if the current transaction must be aborted before going on."},
    {"__reduce__", (PyCFunction)KafkaError_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyType_Slot KafkaError_slots[] = {
    {Py_tp_doc, "KafkaError(code, reason=None, fatal=False, retriable=False, txn_requires_abort=False)\n\n"
                "A Kafka or client error. Compares equal to its integer code."},
    {Py_tp_new, KafkaError_new},
    {Py_tp_dealloc, KafkaError_dealloc},
    {Py_tp_traverse, KafkaError_traverse},
    {Py_tp_methods, KafkaError_methods},
    {Py_tp_str, KafkaError_str},
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

/* One int class attribute per librdkafka error code, plus names older clients used. */
static int add_error_codes(PyTypeObject *type) {
    const struct rd_kafka_err_desc *descs;
    size_t cnt;
    rd_kafka_get_err_descs(&descs, &cnt);
    for (size_t i = 0; i < cnt; i++) {
        if (descs[i].name == NULL)
            continue;
        PyObject *v = PyLong_FromLong(descs[i].code);
        if (v == NULL || PyObject_SetAttrString((PyObject *)type, descs[i].name, v) < 0) {
            Py_XDECREF(v);
            return -1;
        }
        Py_DECREF(v);
    }
    static const struct { const char *name; int code; } legacy[] = {
        {"GROUP_LOAD_IN_PROGRESS", RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS},
        {"GROUP_COORDINATOR_NOT_AVAILABLE", RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE},
        {"NOT_COORDINATOR_FOR_GROUP", RD_KAFKA_RESP_ERR_NOT_COORDINATOR},
    };
    for (size_t i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++) {
        PyObject *v = PyLong_FromLong(legacy[i].code);
        if (v == NULL || PyObject_SetAttrString((PyObject *)type, legacy[i].name, v) < 0) {
            Py_XDECREF(v);
            return -1;
        }
        Py_DECREF(v);
    }
    return 0;
}

int cfl_error_init_types(PyObject *module, cfl_state *st) {
    st->KafkaErrorType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &KafkaError_spec, NULL);
    if (st->KafkaErrorType == NULL || add_error_codes(st->KafkaErrorType) < 0)
        return -1;
    if (PyModule_AddType(module, st->KafkaErrorType) < 0)
        return -1;

    st->KafkaException = PyErr_NewExceptionWithDoc(
        CFL_QUALNAME("KafkaException"),
        "KafkaException(KafkaError)\n\nRaised for Kafka and client errors; args[0] is the KafkaError.",
        PyExc_Exception, NULL);
    if (st->KafkaException == NULL)
        return -1;
    return PyModule_AddObjectRef(module, "KafkaException", st->KafkaException);
}
