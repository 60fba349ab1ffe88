/* cimpl._RecordFuture: the state and hot methods of the kafka-python facade's
 * FutureRecordMetadata (confluent_kafka.compat.kafka.producer.future), a Python subclass that adds
 * get() and the logging of a failed callback.
 *
 * A kafka-python program makes one future per record and usually adds a callback and an errback
 * to it; a delivery report then settles it. In Python those three steps cost more than the rest
 * of send() and the report together. Here add_callback()/add_errback() are C calls, and the
 * producer's report (_produce_record(), handle.c) settles the future in C and calls the callbacks
 * directly. The RecordMetadata is built only when asked for (a callback, value, get()): a record
 * nobody looks at costs a few stores.
 *
 * Threads: the report settles the future on the thread serving the client while the sending
 * thread may still add functions. State changes happen in a critical section on the future (the
 * GIL on builds that have one): a function added before the outcome is queued and run by the
 * settling thread, one added after runs at once on the adding thread; never both, never twice. */
#include "record_future.h"

#include "slot_field.h"

typedef struct {
    PyObject_HEAD
    PyObject *value;     /* success()'s value, or the RecordMetadata once built */
    PyObject *exception; /* failure()'s exception */
    PyObject *callbacks; /* a list of functions waiting for success, or NULL */
    PyObject *errbacks;  /* ... for failure */
    PyObject *wait;      /* wait(future, timeout): returns once get()'s future is settled */
    PyObject *args;      /* (timestamp_ms, key size, value size, header size) */
    /* Delivered, its RecordMetadata not built yet: the producer's spec and the record's place. */
    PyObject *spec;
    PyObject *topic;
    int64_t offset, timestamp;
    int32_t partition;
    int tstype;
    char is_done;
} RecordFutureObject;

#define RF(op) ((RecordFutureObject *)(op))

/* In the critical section: make `value` (a new reference, or NULL) the value, dropping a
 * delivered record's unbuilt place; what was there goes to old[] for release outside. */
static void replace_value(RecordFutureObject *self, PyObject *value, PyObject *old[3]) {
    old[0] = self->value;
    old[1] = self->spec;
    old[2] = self->topic;
    self->value = value;
    self->spec = self->topic = NULL;
}

static void release_old(PyObject *old[3]) {
    for (int i = 0; i < 3; i++)
        Py_XDECREF(old[i]);
}

int cfl_record_future_check_args(PyObject *args) {
    if (PyTuple_CheckExact(args) && PyTuple_GET_SIZE(args) == 4) {
        PyObject *ts = PyTuple_GET_ITEM(args, 0);
        int ok = ts == Py_None || PyLong_Check(ts);
        for (int i = 1; i < 4; i++)
            ok = ok && PyLong_Check(PyTuple_GET_ITEM(args, i));
        if (ok)
            return 0;
    }
    PyErr_SetString(PyExc_TypeError, "args must be (timestamp_ms or None, key size, value size, header size)");
    return -1;
}

PyObject *cfl_record_future_new(PyTypeObject *type, PyObject *wait, PyObject *args) {
    PyObject *op = type->tp_alloc(type, 0);
    if (op == NULL)
        return NULL;
    RF(op)->wait = Py_NewRef(wait);
    RF(op)->args = Py_NewRef(args);
    return op;
}

static int RecordFuture_init(PyObject *op, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"wait", "args", NULL};
    PyObject *wait, *fargs;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:FutureRecordMetadata", kwlist, &wait, &fargs))
        return -1;
    if (!PyCallable_Check(wait)) {
        PyErr_Format(PyExc_TypeError, "wait must be callable, not %.100s", Py_TYPE(wait)->tp_name);
        return -1;
    }
    if (cfl_record_future_check_args(fargs) < 0)
        return -1;
    PyObject *old_wait, *old_args;
    Py_BEGIN_CRITICAL_SECTION(op);
    old_wait = RF(op)->wait;
    old_args = RF(op)->args;
    RF(op)->wait = Py_NewRef(wait);
    RF(op)->args = Py_NewRef(fargs);
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old_wait);
    Py_XDECREF(old_args);
    return 0;
}

/* ---- the RecordMetadata ------------------------------------------------------------------ */

/* spec[0](topic, partition, TopicPartition, offset or None, timestamp, None, key size, value
 * size, header size): kafka-python's RecordMetadata. The timestamp is the broker's (or the
 * producer's) when known, else the one send() was given, else -1. New reference. */
static PyObject *build_metadata(PyObject *spec, PyObject *topic, PyObject *args, int32_t partition, int64_t offset,
                                int64_t timestamp, int tstype) {
    PyTypeObject *rm_type = (PyTypeObject *)PyTuple_GET_ITEM(spec, 0);
    PyObject *part = PyLong_FromLong(partition);
    if (part == NULL)
        return NULL;
    PyObject *tp = cfl_spec_topic_partition(spec, topic, part);
    if (tp == NULL) {
        Py_DECREF(part);
        return NULL;
    }
    PyObject *rm = cfl_tuple_subtype_alloc(rm_type, 9);
    if (rm == NULL) {
        Py_DECREF(part);
        Py_DECREF(tp);
        return NULL;
    }
    PyObject *ts_ms = PyTuple_GET_ITEM(args, 0);
    PyObject *items[9] = {
        Py_NewRef(topic),
        part,
        tp,
        offset < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(offset),
        tstype != RD_KAFKA_TIMESTAMP_NOT_AVAILABLE && timestamp >= 0 ? PyLong_FromLongLong(timestamp)
        : ts_ms != Py_None                                         ? Py_NewRef(ts_ms)
                                                                   : PyLong_FromLong(-1),
        Py_NewRef(Py_None),
        Py_NewRef(PyTuple_GET_ITEM(args, 1)),
        Py_NewRef(PyTuple_GET_ITEM(args, 2)),
        Py_NewRef(PyTuple_GET_ITEM(args, 3)),
    };
    int failed = 0;
    for (int i = 0; i < 9; i++) {
        PyTuple_SET_ITEM(rm, i, items[i]); /* rm owns them; a NULL one is skipped on release */
        failed |= items[i] == NULL;
    }
    if (failed) {
        Py_DECREF(rm);
        return NULL;
    }
    if (!cfl_may_reach_back(rm)) /* ints, str, None and an untracked TopicPartition */
        PyObject_GC_UnTrack(rm);
    return rm;
}

/* The value: success()'s, or the RecordMetadata of a delivered record (built on the first ask,
 * the first one built kept when threads ask at once), or None. New reference. */
static PyObject *value_of(PyObject *op) {
    RecordFutureObject *self = RF(op);
    PyObject *value, *spec = NULL, *topic = NULL, *args = NULL;
    int64_t offset = 0, timestamp = 0;
    int32_t partition = 0;
    int tstype = 0;
    Py_BEGIN_CRITICAL_SECTION(op);
    value = Py_XNewRef(self->value);
    if (value == NULL && self->spec != NULL) {
        spec = Py_NewRef(self->spec);
        topic = Py_NewRef(self->topic);
        args = Py_NewRef(self->args);
        offset = self->offset;
        timestamp = self->timestamp;
        partition = self->partition;
        tstype = self->tstype;
    }
    Py_END_CRITICAL_SECTION();
    if (value != NULL)
        return value;
    if (spec == NULL)
        Py_RETURN_NONE;
    PyObject *built = build_metadata(spec, topic, args, partition, offset, timestamp, tstype);
    Py_DECREF(spec);
    Py_DECREF(topic);
    Py_DECREF(args);
    if (built == NULL)
        return NULL;
    PyObject *old[3] = {NULL, NULL, NULL}, *kept = NULL;
    Py_BEGIN_CRITICAL_SECTION(op);
    if (self->value == NULL)
        replace_value(self, Py_NewRef(built), old);
    else
        kept = Py_NewRef(self->value); /* another thread's, or a success() meanwhile */
    Py_END_CRITICAL_SECTION();
    release_old(old); /* releases happen outside: a release may run a finalizer */
    if (kept != NULL)
        Py_SETREF(built, kept);
    return built;
}

/* ---- settling ---------------------------------------------------------------------------- */

/* A function of `fns` raised: the class's _callback_failed(exception, "callback" or "errback")
 * logs it and says whether to raise it. 0 to go on with the next one; -1 with the exception set
 * to stop (also when there is no such method, or it raised). */
static int callback_failed(PyObject *op, int failed) {
    PyObject *exc = CFL_FETCH_EXC();
    PyObject *res = PyObject_CallMethod(op, "_callback_failed", "Os", exc, failed ? "errback" : "callback");
    if (res == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            CFL_RESTORE_EXC(exc); /* no handler: the function's own exception goes up */
            return -1;
        }
        Py_DECREF(exc);
        return -1;
    }
    int raise = PyObject_IsTrue(res);
    Py_DECREF(res);
    if (raise != 0) {
        if (raise > 0)
            CFL_RESTORE_EXC(exc);
        else
            Py_DECREF(exc);
        return -1;
    }
    Py_DECREF(exc);
    return 0;
}

/* Call each function of `fns` (a list nobody else holds any more) with `arg`, in order. */
static int run_all(PyObject *op, PyObject *fns, PyObject *arg, int failed) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(fns); i++) {
        PyObject *res = PyObject_CallOneArg(PyList_GET_ITEM(fns, i), arg);
        if (res != NULL)
            Py_DECREF(res);
        else if (callback_failed(op, failed) < 0)
            return -1;
    }
    return 0;
}

/* In the critical section, once the outcome is stored: mark the future done and take the
 * functions waiting for that outcome (returned, NULL when none), dropping the others into
 * *drop for release outside. */
static PyObject *take_waiting(RecordFutureObject *self, int failed, PyObject **drop) {
    PyObject *run = failed ? self->errbacks : self->callbacks;
    *drop = failed ? self->callbacks : self->errbacks;
    self->callbacks = self->errbacks = NULL;
    self->is_done = 1;
    return run;
}

/* Run what take_waiting() took (with the value for a success), then release it. */
static int run_taken(PyObject *op, PyObject *fns, PyObject *drop, int failed, PyObject *arg) {
    Py_XDECREF(drop);
    if (fns == NULL)
        return 0;
    int rc = 0;
    if (arg != NULL) {
        rc = run_all(op, fns, arg, failed);
    } else if ((arg = value_of(op)) == NULL) {
        rc = -1;
    } else {
        rc = run_all(op, fns, arg, failed);
        Py_DECREF(arg);
    }
    Py_DECREF(fns);
    return rc;
}

int cfl_record_future_delivered(PyObject *op, PyObject *spec, PyObject *topic, const DrEntry *e) {
    RecordFutureObject *self = RF(op);
    PyObject *fns = NULL, *drop = NULL;
    int settled = 0;
    Py_BEGIN_CRITICAL_SECTION(op);
    if (!self->is_done) {
        Py_XSETREF(self->spec, Py_NewRef(spec));
        Py_XSETREF(self->topic, Py_NewRef(topic));
        self->partition = e->partition;
        self->offset = e->offset;
        self->timestamp = e->timestamp;
        self->tstype = e->tstype;
        fns = take_waiting(self, 0, &drop);
        settled = 1;
    }
    Py_END_CRITICAL_SECTION();
    return settled ? run_taken(op, fns, drop, 0, NULL) : 0;
}

static PyObject *RecordFuture_success(PyObject *op, PyObject *value) {
    RecordFutureObject *self = RF(op);
    PyObject *fns, *drop, *old[3];
    Py_BEGIN_CRITICAL_SECTION(op);
    replace_value(self, Py_NewRef(value), old);
    fns = take_waiting(self, 0, &drop);
    Py_END_CRITICAL_SECTION();
    release_old(old);
    if (run_taken(op, fns, drop, 0, value) < 0)
        return NULL;
    return Py_NewRef(op);
}

/* What a future fails with: `e`, or e() when it is a class; TypeError unless an exception. */
static PyObject *exception_of(PyObject *e) {
    PyObject *exc = PyType_Check(e) ? PyObject_CallNoArgs(e) : Py_NewRef(e);
    if (exc != NULL && !PyExceptionInstance_Check(exc)) {
        Py_DECREF(exc);
        PyErr_SetString(PyExc_TypeError, "future failed without an exception");
        return NULL;
    }
    return exc;
}

static PyObject *RecordFuture_failure(PyObject *op, PyObject *e) {
    RecordFutureObject *self = RF(op);
    PyObject *exc = exception_of(e);
    if (exc == NULL)
        return NULL;
    PyObject *fns, *drop, *old;
    Py_BEGIN_CRITICAL_SECTION(op);
    old = self->exception;
    self->exception = Py_NewRef(exc);
    fns = take_waiting(self, 1, &drop);
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old);
    int rc = run_taken(op, fns, drop, 1, exc);
    Py_DECREF(exc);
    return rc < 0 ? NULL : Py_NewRef(op);
}

/* f(*args, **kwargs) of add_callback(f, *args, **kwargs) as functools.partial(f, *args, **kwargs)
 * (f may come as a keyword too, as in kafka-python). New reference, or NULL with TypeError. */
static PyObject *bind_extra(PyObject *op, const char *name, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PyObject *partial = cfl_cached_import(&cfl_state_of(op)->partial, "functools", "partial");
    if (partial == NULL)
        return NULL;
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *f = NULL, *pos = PyTuple_New(nargs > 0 ? nargs : 1), *kwargs = PyDict_New();
    if (pos == NULL || kwargs == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < nargs; i++)
        PyTuple_SET_ITEM(pos, i, Py_NewRef(args[i]));
    for (Py_ssize_t i = 0; i < nkw; i++)
        if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0)
            goto done;
    if (nargs == 0) {
        PyObject *given;
        if (cfl_dict_pop(kwargs, cfl_state_of(op)->kw[CFL_KW_f], &given) < 0)
            goto done;
        if (given == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional argument: 'f'", name);
            goto done;
        }
        PyTuple_SET_ITEM(pos, 0, given);
    }
    f = PyObject_Call(partial, pos, kwargs);
done:
    Py_XDECREF(pos);
    Py_XDECREF(kwargs);
    return f;
}

/* add_callback / add_errback: queue f (bound to the extra arguments) while unsettled; once
 * settled, call it now if the future settled the way it waits for. */
static PyObject *add(PyObject *op, int errback, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    RecordFutureObject *self = RF(op);
    PyObject *f;
    if (nargs == 1 && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0))
        f = Py_NewRef(args[0]); /* the common call */
    else if ((f = bind_extra(op, errback ? "add_errback" : "add_callback", args, nargs, kwnames)) == NULL)
        return NULL;
    /* The list a first function goes in is made before the state is looked at: making an
     * object may start a garbage collection, which runs finalizers (Python code) and so lets
     * another thread settle the future in between; a list made then would be queued on a
     * settled future and never run. (list.append only reallocates: it runs no Python code.) */
    PyObject *first = PyList_New(1);
    if (first == NULL) {
        Py_DECREF(f);
        return NULL;
    }
    PyList_SET_ITEM(first, 0, Py_NewRef(f));
    int queued = 0, runs = 0, failed_err = 0;
    PyObject *exc = NULL;
    Py_BEGIN_CRITICAL_SECTION(op);
    if (!self->is_done) {
        PyObject **fns = errback ? &self->errbacks : &self->callbacks;
        if (*fns == NULL)
            *fns = Py_NewRef(first);
        else if (PyList_Append(*fns, f) < 0)
            failed_err = 1;
        queued = 1;
    } else {
        runs = errback == (self->exception != NULL);
        exc = Py_XNewRef(self->exception);
    }
    Py_END_CRITICAL_SECTION();
    PyObject *res = Py_None;
    if (failed_err) {
        res = NULL;
    } else if (!queued && runs) {
        PyObject *arg = errback ? Py_NewRef(exc) : value_of(op);
        res = arg != NULL ? PyObject_CallOneArg(f, arg) : NULL;
        Py_XDECREF(arg);
        if (res != NULL)
            Py_DECREF(res);
        else if (callback_failed(op, errback) == 0)
            res = Py_None;
    }
    Py_XDECREF(exc);
    Py_DECREF(first);
    Py_DECREF(f);
    return res == NULL ? NULL : Py_NewRef(op);
}

static PyObject *RecordFuture_add_callback(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    return add(op, 0, args, nargs, kwnames);
}

static PyObject *RecordFuture_add_errback(PyObject *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    return add(op, 1, args, nargs, kwnames);
}

/* ---- attributes -------------------------------------------------------------------------- */

static PyObject *RecordFuture_get_value(PyObject *op, void *closure) {
    (void)closure;
    return value_of(op);
}

static int RecordFuture_set_value(PyObject *op, PyObject *value, void *closure) {
    (void)closure;
    PyObject *old[3];
    Py_BEGIN_CRITICAL_SECTION(op);
    replace_value(RF(op), value != NULL && value != Py_None ? Py_NewRef(value) : NULL, old);
    Py_END_CRITICAL_SECTION();
    release_old(old);
    return 0;
}

/* An object field read and replaced under the future's critical section (None for NULL). */
static PyObject *get_field(PyObject *op, PyObject **field) {
    PyObject *v;
    Py_BEGIN_CRITICAL_SECTION(op);
    v = Py_XNewRef(*field);
    Py_END_CRITICAL_SECTION();
    return v != NULL ? v : Py_NewRef(Py_None);
}

static void set_field(PyObject *op, PyObject **field, PyObject *value) {
    PyObject *old;
    Py_BEGIN_CRITICAL_SECTION(op);
    old = *field;
    *field = value != NULL && value != Py_None ? Py_NewRef(value) : NULL;
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old);
}

static PyObject *RecordFuture_get_exception(PyObject *op, void *closure) {
    (void)closure;
    return get_field(op, &RF(op)->exception);
}

static int RecordFuture_set_exception(PyObject *op, PyObject *value, void *closure) {
    (void)closure;
    set_field(op, &RF(op)->exception, value);
    return 0;
}

static PyObject *RecordFuture_get_wait(PyObject *op, void *closure) {
    (void)closure;
    return get_field(op, &RF(op)->wait);
}

static int RecordFuture_set_wait(PyObject *op, PyObject *value, void *closure) {
    (void)closure;
    set_field(op, &RF(op)->wait, value);
    return 0;
}

static PyObject *RecordFuture_get_args(PyObject *op, void *closure) {
    (void)closure;
    return get_field(op, &RF(op)->args);
}

static PyObject *RecordFuture_get_is_done(PyObject *op, void *closure) {
    (void)closure;
    int done;
    Py_BEGIN_CRITICAL_SECTION(op);
    done = RF(op)->is_done;
    Py_END_CRITICAL_SECTION();
    return PyBool_FromLong(done);
}

static int RecordFuture_set_is_done(PyObject *op, PyObject *value, void *closure) {
    (void)closure;
    int done = value != NULL ? PyObject_IsTrue(value) : 0;
    if (done < 0)
        return -1;
    Py_BEGIN_CRITICAL_SECTION(op);
    RF(op)->is_done = (char)done;
    Py_END_CRITICAL_SECTION();
    return 0;
}

static PyGetSetDef RecordFuture_getset[] = {
    {"is_done", RecordFuture_get_is_done, RecordFuture_set_is_done, "True once settled.", NULL},
    {"value", RecordFuture_get_value, RecordFuture_set_value,
     "The RecordMetadata once delivered (None before, or after a failure).", NULL},
    {"exception", RecordFuture_get_exception, RecordFuture_set_exception,
     "The exception it failed with, or None.", NULL},
    {"args", RecordFuture_get_args, NULL, "(timestamp_ms, key size, value size, header size) of the record.", NULL},
    {"_wait", RecordFuture_get_wait, RecordFuture_set_wait,
     "wait(future, timeout): what get() waits with; it returns once the future is settled.", NULL},
    {NULL},
};

static PyMethodDef RecordFuture_methods[] = {
    {"success", RecordFuture_success, METH_O,
     "success($self, value, /)\n--\n\nSettle with `value` and run the callbacks.\n\n:returns: self."},
    {"failure", RecordFuture_failure, METH_O,
     "failure($self, e, /)\n--\n\nSettle with an exception (an instance, or a class to instantiate) and run "
     "the errbacks.\n\n:returns: self.\n:raises TypeError: if `e` is not an exception."},
    {"add_callback", (PyCFunction)(void (*)(void))RecordFuture_add_callback, METH_FASTCALL | METH_KEYWORDS,
     "add_callback($self, f, *args, **kwargs)\n--\n\nCall f(*args, value, **kwargs) on success (now, if "
     "already succeeded).\n\n:returns: self."},
    {"add_errback", (PyCFunction)(void (*)(void))RecordFuture_add_errback, METH_FASTCALL | METH_KEYWORDS,
     "add_errback($self, f, *args, **kwargs)\n--\n\nCall f(*args, exception, **kwargs) on failure (now, if "
     "already failed).\n\n:returns: self."},
    {NULL},
};

/* ---- type -------------------------------------------------------------------------------- */

static int RecordFuture_traverse(PyObject *op, visitproc visit, void *arg) {
    RecordFutureObject *self = RF(op);
    Py_VISIT(Py_TYPE(op));
    Py_VISIT(self->value);
    Py_VISIT(self->exception);
    Py_VISIT(self->callbacks);
    Py_VISIT(self->errbacks);
    Py_VISIT(self->wait);
    Py_VISIT(self->args);
    Py_VISIT(self->spec);
    Py_VISIT(self->topic);
    return 0;
}

static int RecordFuture_clear(PyObject *op) {
    RecordFutureObject *self = RF(op);
    Py_CLEAR(self->value);
    Py_CLEAR(self->exception);
    Py_CLEAR(self->callbacks);
    Py_CLEAR(self->errbacks);
    Py_CLEAR(self->wait);
    Py_CLEAR(self->args);
    Py_CLEAR(self->spec);
    Py_CLEAR(self->topic);
    return 0;
}

static void RecordFuture_dealloc(PyObject *op) {
    PyTypeObject *tp = Py_TYPE(op);
    PyObject_GC_UnTrack(op);
    RecordFuture_clear(op);
    tp->tp_free(op);
    Py_DECREF(tp);
}

static PyType_Slot RecordFuture_slots[] = {
    {Py_tp_doc, "_RecordFuture(wait, args)\n--\n\nThe state and hot methods of kafka-python's "
                "FutureRecordMetadata (confluent_kafka.compat.kafka.producer.future), settled by "
                "Producer._produce_record()'s delivery reports."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, RecordFuture_init},
    {Py_tp_dealloc, RecordFuture_dealloc},
    {Py_tp_traverse, RecordFuture_traverse},
    {Py_tp_clear, RecordFuture_clear},
    {Py_tp_getset, RecordFuture_getset},
    {Py_tp_methods, RecordFuture_methods},
    {0, NULL},
};

static PyType_Spec RecordFuture_spec = {
    .name = CFL_QUALNAME("_RecordFuture"),
    .basicsize = sizeof(RecordFutureObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = RecordFuture_slots,
};

int cfl_record_future_init_type(PyObject *module, cfl_state *st) {
    st->RecordFutureType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &RecordFuture_spec, NULL);
    if (st->RecordFutureType == NULL)
        return -1;
    return PyModule_AddType(module, st->RecordFutureType);
}
