/* What free-threaded CPython (3.13t and later, PEP 703) needs from the C core, written once so the
 * same code builds on every supported Python:
 *
 * - critical sections (Py_BEGIN_CRITICAL_SECTION): the per-object lock of 3.13+. CPython makes them
 *   no-ops on builds with a GIL; before 3.13 they do not exist and are defined here as no-ops.
 *   A critical section is suspended while its thread waits (GIL released, a contended lock), so it
 *   protects short stretches of C that call no Python code and no blocking librdkafka function.
 * - atomics on the few fields that threads share without a lock (a client's use count and
 *   lifetime flags, a produced batch's reference count, a lazily imported class): CPython's own
 *   atomics on free-threaded builds, plain loads and stores under a GIL, which already orders
 *   them. The GIL builds therefore compile to exactly what they did before.
 * - strong-reference lookups (PyDict_GetItemRef, PyList_GetItemRef, PyDict_Pop,
 *   PyDict_SetDefaultRef, 3.13+): a borrowed reference from a container another thread may change
 *   can die before it is used. Older Pythons get equivalents built from the borrowed calls, which
 *   the GIL makes safe there.
 * - snapshots of list arguments: a list the caller shares with other threads may be resized while
 *   we walk it, so free-threaded builds walk a tuple copy (PySequence_Fast would hand back the list
 *   itself). */
#ifndef CFL_COMPAT_H
#define CFL_COMPAT_H

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

/* ---- critical sections ------------------------------------------------------------------ */

#if PY_VERSION_HEX < 0x030D0000
#define Py_BEGIN_CRITICAL_SECTION(op) {
#define Py_END_CRITICAL_SECTION() }
#define Py_BEGIN_CRITICAL_SECTION2(a, b) {
#define Py_END_CRITICAL_SECTION2() }
#endif

/* ThreadSanitizer builds (CMake -DCFL_TSAN=ON, scripts/tsan.sh): CPython is not instrumented, so
 * TSan cannot see the mutex a critical section takes inside libpython, nor CPython's allocator
 * handing memory one thread freed to another. Mark both for it: a critical section acquires and
 * releases its object for TSan too, and memory the extension allocates is new to TSan. Nothing
 * changes in other builds. */
#if defined(CFL_TSAN) && defined(Py_GIL_DISABLED)
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void AnnotateNewMemory(const char *file, int line, const volatile void *mem, size_t size);
#undef Py_BEGIN_CRITICAL_SECTION
#undef Py_END_CRITICAL_SECTION
#undef Py_BEGIN_CRITICAL_SECTION2
#undef Py_END_CRITICAL_SECTION2
#define Py_BEGIN_CRITICAL_SECTION(op)                                                             \
    {                                                                                             \
        PyCriticalSection _py_cs;                                                                 \
        void *_cfl_cs_op = (void *)(op);                                                          \
        PyCriticalSection_Begin(&_py_cs, _PyObject_CAST(op));                                     \
        __tsan_acquire(_cfl_cs_op)
#define Py_END_CRITICAL_SECTION()                                                                 \
        __tsan_release(_cfl_cs_op);                                                               \
        PyCriticalSection_End(&_py_cs);                                                           \
    }
#define Py_BEGIN_CRITICAL_SECTION2(a, b)                                                          \
    {                                                                                             \
        PyCriticalSection2 _py_cs2;                                                               \
        void *_cfl_cs_a = (void *)(a), *_cfl_cs_b = (void *)(b);                                  \
        PyCriticalSection2_Begin(&_py_cs2, _PyObject_CAST(a), _PyObject_CAST(b));                 \
        __tsan_acquire(_cfl_cs_a);                                                                \
        __tsan_acquire(_cfl_cs_b)
#define Py_END_CRITICAL_SECTION2()                                                                \
        __tsan_release(_cfl_cs_b);                                                                \
        __tsan_release(_cfl_cs_a);                                                                \
        PyCriticalSection2_End(&_py_cs2);                                                         \
    }
#define CFL_TSAN_NEW_MEMORY(p, size) AnnotateNewMemory(__FILE__, __LINE__, (p), (size))
#else
#define CFL_TSAN_NEW_MEMORY(p, size) ((void)0)
#endif
/* An object of one of the extension's types, just allocated or about to be freed. */
#define CFL_TSAN_FRESH(obj) CFL_TSAN_NEW_MEMORY((obj), (size_t)Py_TYPE(obj)->tp_basicsize)

/* ---- atomics ---------------------------------------------------------------------------- */

/* A counter that threads change without the GIL, in every build (the CFL_*_INT below are plain
 * loads and stores where the GIL serializes their callers). */
#if defined(_MSC_VER)
#include <intrin.h>
#define CFL_SHARED_ADD_INT(p, v) _InterlockedExchangeAdd((volatile long *)(p), (long)(v))
#define CFL_SHARED_LOAD_INT(p) _InterlockedOr((volatile long *)(p), 0)
#else
#define CFL_SHARED_ADD_INT(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define CFL_SHARED_LOAD_INT(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#endif

#ifdef Py_GIL_DISABLED
#define CFL_LOAD_INT(p) _Py_atomic_load_int(p)
#define CFL_STORE_INT(p, v) _Py_atomic_store_int((p), (v))
#define CFL_ADD_INT(p, v) _Py_atomic_add_int((p), (v)) /* returns the old value */
#define CFL_LOAD_SSIZE(p) _Py_atomic_load_ssize(p)
#define CFL_ADD_SSIZE(p, v) _Py_atomic_add_ssize((p), (v)) /* returns the old value */
#define CFL_LOAD_PTR(p) _Py_atomic_load_ptr(p)
#define CFL_STORE_PTR(p, v) _Py_atomic_store_ptr((p), (v))
/* Store v in *p if *p is NULL; 1 when stored, 0 when *p already held something. */
#define CFL_PUBLISH_PTR(p, v) cfl_publish_ptr((void **)(p), (void *)(v))
static inline int cfl_publish_ptr(void **p, void *v) {
    void *expected = NULL;
    return _Py_atomic_compare_exchange_ptr(p, &expected, v);
}
/* Claim an int flag: set *p from 0 to 1; 1 when this thread did. */
static inline int cfl_claim_int(int *p) {
    int expected = 0;
    return _Py_atomic_compare_exchange_int(p, &expected, 1);
}
#else
#define CFL_LOAD_INT(p) (*(p))
#define CFL_STORE_INT(p, v) ((void)(*(p) = (v)))
static inline int cfl_add_int(int *p, int v) {
    int old = *p;
    *p = old + v;
    return old;
}
#define CFL_ADD_INT(p, v) cfl_add_int((p), (v))
#define CFL_LOAD_SSIZE(p) (*(p))
static inline Py_ssize_t cfl_add_ssize(Py_ssize_t *p, Py_ssize_t v) {
    Py_ssize_t old = *p;
    *p = old + v;
    return old;
}
#define CFL_ADD_SSIZE(p, v) cfl_add_ssize((p), (v))
#define CFL_LOAD_PTR(p) ((void *)*(p))
#define CFL_STORE_PTR(p, v) ((void)(*(p) = (v)))
#define CFL_PUBLISH_PTR(p, v) cfl_publish_ptr((void **)(p), (void *)(v))
static inline int cfl_publish_ptr(void **p, void *v) {
    if (*p != NULL)
        return 0;
    *p = v;
    return 1;
}
static inline int cfl_claim_int(int *p) {
    if (*p != 0)
        return 0;
    *p = 1;
    return 1;
}
#endif

/* ---- strong-reference container access -------------------------------------------------- */

/* d[key] as a new reference in *out: 1 found, 0 absent (*out NULL), -1 with an exception. */
static inline int cfl_dict_get_ref(PyObject *d, PyObject *key, PyObject **out) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyDict_GetItemRef(d, key, out);
#else
    PyObject *v = PyDict_GetItemWithError(d, key);
    *out = Py_XNewRef(v);
    return v != NULL ? 1 : PyErr_Occurred() ? -1 : 0;
#endif
}

/* d[name] as a new reference, or NULL when absent, with no exception: PyDict_GetItemString's
 * forgiving behaviour, without its borrowed reference. */
static inline PyObject *cfl_dict_get_string(PyObject *d, const char *name) {
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *v;
    if (PyDict_GetItemStringRef(d, name, &v) < 0)
        PyErr_Clear();
    return v;
#else
    return Py_XNewRef(PyDict_GetItemString(d, name));
#endif
}

/* Remove d[key] and give it as a new reference in *out: 1 removed, 0 absent, -1 with an exception. */
static inline int cfl_dict_pop(PyObject *d, PyObject *key, PyObject **out) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyDict_Pop(d, key, out);
#else
    PyObject *v = PyDict_GetItemWithError(d, key);
    *out = NULL;
    if (v == NULL)
        return PyErr_Occurred() ? -1 : 0;
    Py_INCREF(v);
    if (PyDict_DelItem(d, key) < 0) {
        Py_DECREF(v);
        return -1;
    }
    *out = v;
    return 1;
#endif
}

/* d.setdefault(key, dflt) with the value in *out as a new reference: 0 when dflt was inserted,
 * 1 when another value was there already, -1 with an exception. */
static inline int cfl_dict_setdefault_ref(PyObject *d, PyObject *key, PyObject *dflt, PyObject **out) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyDict_SetDefaultRef(d, key, dflt, out);
#else
    PyObject *v = PyDict_SetDefault(d, key, dflt);
    *out = Py_XNewRef(v);
    return v == NULL ? -1 : v != dflt;
#endif
}

/* list[i] as a new reference; NULL with IndexError when i is out of range (now). */
static inline PyObject *cfl_list_get_ref(PyObject *list, Py_ssize_t i) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyList_GetItemRef(list, i);
#else
    return Py_XNewRef(PyList_GetItem(list, i));
#endif
}

/* A list or tuple whose items stay put while we read them with PySequence_Fast_GET_ITEM: the
 * object itself under a GIL, a tuple copy of a list on free-threaded builds (other threads may
 * resize the list meanwhile). New reference; NULL with an exception. */
static inline PyObject *cfl_seq_snapshot(PyObject *seq) {
#ifdef Py_GIL_DISABLED
    if (PyList_Check(seq))
        return PyList_AsTuple(seq);
#endif
    return Py_NewRef(seq);
}

/* A dict to walk with PyDict_Next while calling code that might let other threads in: the dict
 * itself under a GIL, a private copy on free-threaded builds. New reference; NULL with an
 * exception. */
static inline PyObject *cfl_dict_snapshot(PyObject *d) {
#ifdef Py_GIL_DISABLED
    return PyDict_Copy(d);
#else
    return Py_NewRef(d);
#endif
}

/* PySequence_Fast, except that a list given by the caller is copied on free-threaded builds
 * (see cfl_seq_snapshot). */
static inline PyObject *cfl_sequence_fast(PyObject *obj, const char *message) {
    PyObject *seq = PySequence_Fast(obj, message);
#ifdef Py_GIL_DISABLED
    if (seq != NULL && seq == obj && PyList_Check(seq)) {
        PyObject *copy = PyList_AsTuple(seq);
        Py_DECREF(seq);
        return copy;
    }
#endif
    return seq;
}

#endif /* CFL_COMPAT_H */
