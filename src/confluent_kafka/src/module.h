/* Module state shared by every type of confluent_kafka.cimpl (PEP 489 / PEP 630).
 *
 * No static mutable globals: every type object and cached Python object lives in the
 * module state, reached from a type with cfl_state_from_type(). */
#ifndef CFL_MODULE_H
#define CFL_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <librdkafka/rdkafka.h>
#include <stdint.h>

#define CFL_MODULE_NAME "confluent_kafka.cimpl"
#define CFL_QUALNAME(name) CFL_MODULE_NAME "." name

#ifndef BUILD_LIBRDKAFKA_VERSION
#define BUILD_LIBRDKAFKA_VERSION "unknown"
#endif

/* Keyword names parsed by the FASTCALL entry points, interned once per module. */
#define CFL_KEYWORDS(X)                                                              \
    X(topic) X(value) X(key) X(partition) X(on_delivery) X(callback) X(timestamp)    \
    X(headers) X(timeout) X(num_messages) X(messages) X(keys) X(timestamps) X(values)  \
    X(set_result) /* a method name: _produce_future()'s reports call fut.set_result() */ \
    X(_callbacks) X(remove_done_callback) X(get_loop) X(get_debug) X(call_soon) /* done_batch.c */ \
    X(f)          /* add_callback(f=...) */

enum cfl_kw {
#define CFL_KW_ENUM(name) CFL_KW_##name,
    CFL_KEYWORDS(CFL_KW_ENUM)
#undef CFL_KW_ENUM
    CFL_KW__COUNT
};

typedef struct {
    PyTypeObject *KafkaErrorType;
    PyTypeObject *MessageType;
    PyTypeObject *TopicPartitionType;
    PyTypeObject *ProducerType;
    PyTypeObject *ConsumerType;
    PyTypeObject *MockClusterType;
    PyTypeObject *AdminClientImplType;
    PyTypeObject *ArrowBatchType;
    PyTypeObject *SlotFieldType;
    PyTypeObject *RecordFutureType;
    PyObject *KafkaException;
    /* Pure-Python classes the C layer builds, imported on first use. */
    PyObject *ThrottleEvent;
    PyObject *metadata_module;
    PyObject *partial; /* functools.partial: add_callback()'s extra arguments */
    PyObject *kw[CFL_KW__COUNT];
} cfl_state;

extern PyModuleDef cfl_module_def;

static inline cfl_state *cfl_get_state(PyObject *module) {
    return (cfl_state *)PyModule_GetState(module);
}

/* The module that defined `type` (or one of its bases, for Python subclasses). */
cfl_state *cfl_state_from_type(PyTypeObject *type);

static inline cfl_state *cfl_state_of(PyObject *obj) {
    return cfl_state_from_type(Py_TYPE(obj));
}

/* A new instance of `type`, a tuple subclass (a named tuple), with n items still NULL for the
 * caller to set with PyTuple_SET_ITEM. tp_alloc zeroes the object, but from 3.14 on a tuple
 * caches its hash in ob_hash, where -1 means "not computed": left at 0, the tuple would hash to
 * 0 and not be found in a dict under an equal tuple made another way. */
static inline PyObject *cfl_tuple_subtype_alloc(PyTypeObject *type, Py_ssize_t n) {
    PyObject *t = type->tp_alloc(type, n);
#if PY_VERSION_HEX >= 0x030E0000
    if (t != NULL)
        ((PyTupleObject *)t)->ob_hash = -1;
#endif
    return t;
}

/* Keyword/positional parser for METH_FASTCALL|METH_KEYWORDS entry points.
 * `params` lists keyword ids in positional order; out[i] receives a borrowed reference or
 * NULL when the argument was not given. Returns 0, or -1 with TypeError set. */
int cfl_parse_args(cfl_state *st, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames, const enum cfl_kw *params, int nparams, int nrequired,
                   PyObject **out);

/* A timeout in seconds (None or negative = forever) as milliseconds (-1 = forever).
 * Returns 0, or -1 with TypeError/ValueError set. */
int cfl_timeout_ms(PyObject *obj, int *out_ms);

/* Bytes-like or str argument as a pointer and length, valid until cfl_bytes_release().
 * None gives NULL/0. Returns 0, or -1 with TypeError set naming `what`. */
int cfl_bytes_arg(PyObject *obj, const char *what, const void **data, size_t *len,
                  Py_buffer *view, int *have_view);
static inline void cfl_bytes_release(Py_buffer *view, int have_view) {
    if (have_view)
        PyBuffer_Release(view);
}

/* Import `module.attr` once and cache it in *slot. Returns a borrowed reference. */
PyObject *cfl_cached_import(PyObject **slot, const char *module, const char *attr);

/* Python 3.9 lacks these small conveniences. */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *cfl_newref(PyObject *o) { Py_INCREF(o); return o; }
static inline PyObject *cfl_xnewref(PyObject *o) { Py_XINCREF(o); return o; }
#define Py_NewRef(o) cfl_newref((PyObject *)(o))
#define Py_XNewRef(o) cfl_xnewref((PyObject *)(o))
static inline int PyModule_AddObjectRef(PyObject *m, const char *name, PyObject *v) {
    Py_INCREF(v);
    if (PyModule_AddObject(m, name, v) < 0) {
        Py_DECREF(v);
        return -1;
    }
    return 0;
}
#endif

/* Free-threading shims: critical sections, atomics, strong-reference lookups (compat.h). */
#include "compat.h"

/* A monotonic clock in milliseconds, and a short sleep (the caller releases the GIL): POSIX has
 * clock_gettime/nanosleep, Windows (MSVC) has neither. Defined in handle.c. */
int64_t cfl_monotonic_ms(void);
void cfl_sleep_ms(int ms);

/* Python < 3.12 has no PyErr_GetRaisedException; keep one shape across versions. */
#if PY_VERSION_HEX >= 0x030C0000
#define CFL_FETCH_EXC() PyErr_GetRaisedException()
#define CFL_RESTORE_EXC(e) PyErr_SetRaisedException(e)
#else
static inline PyObject *cfl_fetch_exc(void) {
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    if (t == NULL)
        return NULL;
    PyErr_NormalizeException(&t, &v, &tb);
    if (tb != NULL)
        PyException_SetTraceback(v, tb);
    Py_XDECREF(t);
    Py_XDECREF(tb);
    return v;
}
static inline void cfl_restore_exc(PyObject *v) {
    if (v == NULL)
        return;
    PyObject *t = (PyObject *)Py_TYPE(v);
    Py_INCREF(t);
    PyErr_Restore(t, v, PyException_GetTraceback(v));
}
#define CFL_FETCH_EXC() cfl_fetch_exc()
#define CFL_RESTORE_EXC(e) cfl_restore_exc(e)
#endif

#endif /* CFL_MODULE_H */
