/* confluent_kafka.cimpl: module state, multi-phase init, constants and module functions. */
#include <math.h>

#include "admin.h"
#include "arrow.h"
#include "consumer.h"
#include "error.h"
#include "handle.h"
#include "message.h"
#include "mock.h"
#include "module.h"
#include "producer.h"
#include "record_future.h"
#include "slot_field.h"
#include "topic_partition.h"

#ifndef CFL_VERSION
#define CFL_VERSION "0.0.0"
#endif

/* ---- helpers shared by every file ------------------------------------------------------- */

cfl_state *cfl_state_from_type(PyTypeObject *type) {
#if PY_VERSION_HEX >= 0x030B0000
    PyObject *module = PyType_GetModuleByDef(type, &cfl_module_def);
#else
    PyObject *module = NULL;
    PyObject *mro = type->tp_mro;
    for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *t = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE))
            continue;
        PyObject *m = ((PyHeapTypeObject *)t)->ht_module;
        if (m != NULL && PyModule_GetDef(m) == &cfl_module_def) {
            module = m;
            break;
        }
    }
    if (module == NULL)
        PyErr_Format(PyExc_TypeError, "%s is not a confluent_kafka.cimpl type", type->tp_name);
#endif
    return module != NULL ? cfl_get_state(module) : NULL;
}

/* The error CPython's own argument parser gives for these arguments (PyArg_ParseTupleAndKeywords
 * without a function name, as confluent-kafka 2.x parses them): called once our parser has found
 * a problem, so callers see the same TypeError text whichever parser they met. */
static void parse_error(cfl_state *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                        const enum cfl_kw *params, int nparams, int nrequired) {
    char fmt[40], *kwlist[16];
    PyObject *out[16];
    if (nparams > 15 || nparams + 2 > (int)sizeof(fmt))
        return;
    int f = 0;
    for (int i = 0; i < nparams; i++) {
        if (i == nrequired)
            fmt[f++] = '|';
        fmt[f++] = 'O';
        if ((kwlist[i] = (char *)PyUnicode_AsUTF8(st->kw[params[i]])) == NULL)
            return;
    }
    if (nrequired >= nparams)
        fmt[f++] = '|';
    fmt[f] = '\0';
    kwlist[nparams] = NULL;
    PyObject *tuple = PyTuple_New(nargs), *dict = NULL;
    for (Py_ssize_t i = 0; tuple != NULL && i < nargs; i++)
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (tuple != NULL && nkw > 0) {
        dict = PyDict_New();
        for (Py_ssize_t k = 0; dict != NULL && k < nkw; k++)
            if (PyDict_SetItem(dict, PyTuple_GET_ITEM(kwnames, k), args[nargs + k]) < 0)
                Py_CLEAR(dict);
        if (dict == NULL)
            Py_CLEAR(tuple);
    }
    if (tuple != NULL) {
        /* Up to 15 'O' slots, as many as the format names. */
        PyArg_ParseTupleAndKeywords(tuple, dict, fmt, kwlist, &out[0], &out[1], &out[2], &out[3], &out[4],
                                    &out[5], &out[6], &out[7], &out[8], &out[9], &out[10], &out[11], &out[12],
                                    &out[13], &out[14]);
    }
    Py_XDECREF(tuple);
    Py_XDECREF(dict);
}

int cfl_parse_args(cfl_state *st, const char *fname, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames, const enum cfl_kw *params, int nparams, int nrequired, PyObject **out) {
    if (nargs > nparams)
        goto fail;
    for (int i = 0; i < nparams; i++)
        out[i] = i < nargs ? args[i] : NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int i = 0; i < nparams && found < 0; i++) /* interned: identity first */
            if (name == st->kw[params[i]])
                found = i;
        for (int i = 0; i < nparams && found < 0; i++)
            if (PyUnicode_Compare(name, st->kw[params[i]]) == 0)
                found = i;
        if (found < 0 || out[found] != NULL)
            goto fail;
        out[found] = args[nargs + k];
    }
    for (int i = 0; i < nrequired; i++)
        if (out[i] == NULL)
            goto fail;
    return 0;
fail:
    parse_error(st, args, nargs, kwnames, params, nparams, nrequired);
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "%s() got arguments it does not take", fname);
    return -1;
}

int cfl_timeout_ms(PyObject *obj, int *out_ms) {
    *out_ms = -1;
    if (obj == NULL || obj == Py_None)
        return 0;
    /* Any real number, as float() takes it; the TypeError for anything else is float's own
     * ("must be real number, not str"). */
    double s = PyFloat_AsDouble(obj);
    if (s == -1.0 && PyErr_Occurred())
        return -1;
    if (isnan(s)) {
        PyErr_SetString(PyExc_ValueError, "timeout must not be NaN");
        return -1;
    }
    if (s < 0)
        return 0; /* forever */
    double ms = ceil(s * 1000.0);
    *out_ms = ms >= (double)(INT_MAX - 1) ? INT_MAX - 1 : (int)ms;
    return 0;
}

int cfl_bytes_arg(PyObject *obj, const char *what, const void **data, size_t *len, Py_buffer *view,
                  int *have_view) {
    *have_view = 0;
    *data = NULL;
    *len = 0;
    if (obj == NULL || obj == Py_None)
        return 0;
    if (PyBytes_Check(obj)) {
        *data = PyBytes_AS_STRING(obj);
        *len = (size_t)PyBytes_GET_SIZE(obj);
        return 0;
    }
    if (PyUnicode_Check(obj)) {
        Py_ssize_t n;
        *data = PyUnicode_AsUTF8AndSize(obj, &n);
        *len = (size_t)n;
        return *data == NULL ? -1 : 0;
    }
    if (PyObject_CheckBuffer(obj)) {
        if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
            return -1;
        *have_view = 1;
        *data = view->buf;
        *len = (size_t)view->len;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be str, bytes, a buffer or None, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

PyObject *cfl_cached_import(PyObject **slot, const char *module, const char *attr) {
    PyObject *cached = CFL_LOAD_PTR(slot);
    if (cached != NULL)
        return cached;
    /* Threads may get here at once: each imports (the import system serializes that), the first
     * to publish its object wins and the others drop theirs, so the slot is written once and the
     * borrowed reference returned stays valid as long as the module state. */
    PyObject *mod = PyImport_ImportModule(module);
    PyObject *obj = mod;
    if (mod != NULL && attr != NULL) {
        obj = PyObject_GetAttrString(mod, attr);
        Py_DECREF(mod);
    }
    if (obj == NULL)
        return NULL;
    if (!CFL_PUBLISH_PTR(slot, obj))
        Py_DECREF(obj);
    return CFL_LOAD_PTR(slot);
}

/* ---- module functions ------------------------------------------------------------------- */

static PyObject *cfl_version(PyObject *self, PyObject *unused) { return PyUnicode_FromString(CFL_VERSION); }

static PyObject *cfl_libversion(PyObject *self, PyObject *unused) {
    return Py_BuildValue("(si)", rd_kafka_version_str(), rd_kafka_version());
}

typedef int32_t (*partitioner_fn)(const rd_kafka_topic_t *, const void *, size_t, int32_t, void *, void *);

/* O& converter for a partitioner's key: a bytes-like object, as upstream takes (its TypeError's
 * text for anything else, str included: the caller encodes a str key as the producer would).
 * Checked before partition_count, as upstream's parser does. */
static int bytes_like_key(PyObject *obj, void *out) {
    if (PyUnicode_Check(obj) || !PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'", Py_TYPE(obj)->tp_name);
        return 0;
    }
    *(PyObject **)out = obj;
    return 1;
}

/* The partition librdkafka's partitioner would pick for this key. */
static PyObject *partition_for(PyObject *args, PyObject *kwargs, const char *fmt, partitioner_fn fn) {
    static char *kwlist[] = {"key", "partition_count", NULL};
    PyObject *key;
    int count;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, fmt, kwlist, bytes_like_key, &key, &count))
        return NULL;
    if (count <= 0) {
        PyErr_Format(PyExc_ValueError, "partition_count must be > 0, got %d", count);
        return NULL;
    }
    const void *data;
    size_t len;
    Py_buffer view;
    int have_view;
    if (cfl_bytes_arg(key, "key", &data, &len, &view, &have_view) < 0)
        return NULL;
    /* These partitioners read neither the topic nor the opaques. */
    int32_t p = fn(NULL, data, len, count, NULL, NULL);
    cfl_bytes_release(&view, have_view);
    return PyLong_FromLong(p);
}

static PyObject *cfl_murmur2(PyObject *m, PyObject *args, PyObject *kwargs) {
    return partition_for(args, kwargs, "O&i:murmur2", rd_kafka_msg_partitioner_murmur2);
}

static PyObject *cfl_consistent(PyObject *m, PyObject *args, PyObject *kwargs) {
    return partition_for(args, kwargs, "O&i:consistent", rd_kafka_msg_partitioner_consistent);
}

static PyObject *cfl_fnv1a(PyObject *m, PyObject *args, PyObject *kwargs) {
    return partition_for(args, kwargs, "O&i:fnv1a", rd_kafka_msg_partitioner_fnv1a);
}

/* _check_keywords(names, kwargs, /): parse kwargs against the keyword list names (every one
 * optional, any value) with PyArg_ParseTupleAndKeywords, so that a keyword not in names raises
 * the TypeError this interpreter words for an unnamed C function ("this function got an
 * unexpected keyword argument 'x'. Did you mean 'y'?" from 3.13 on, "'x' is an invalid keyword
 * argument for this function" before): the admin client's Python argument parsing raises what
 * upstream's C parsing raises on the same interpreter. Returns None when every keyword is known. */
#define CFL_MAX_KEYWORDS 16
static PyObject *cfl_check_keywords(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyTuple_Check(args[0]) || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_check_keywords(names: tuple of str, kwargs: dict, /)");
        return NULL;
    }
    PyObject *names = args[0], *kwargs = args[1];
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (n > CFL_MAX_KEYWORDS) {
        PyErr_Format(PyExc_ValueError, "_check_keywords takes at most %d names", CFL_MAX_KEYWORDS);
        return NULL;
    }
    char *kwlist[CFL_MAX_KEYWORDS + 1] = {NULL};
    char format[CFL_MAX_KEYWORDS + 2] = "|";
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        const char *utf8 = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (utf8 == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "_check_keywords: names must be str");
            return NULL;
        }
        kwlist[i] = (char *)utf8;  /* kept alive by the tuple for the call */
        format[i + 1] = 'O';
    }
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL)
        return NULL;
    PyObject *out[CFL_MAX_KEYWORDS] = {NULL};  /* borrowed references; only as many as names are read */
    int ok = PyArg_ParseTupleAndKeywords(empty, kwargs, format, kwlist, &out[0], &out[1], &out[2], &out[3],
                                         &out[4], &out[5], &out[6], &out[7], &out[8], &out[9], &out[10],
                                         &out[11], &out[12], &out[13], &out[14], &out[15]);
    Py_DECREF(empty);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef cfl_functions[] = {
    {"version", cfl_version, METH_NOARGS, "version() -> str\n\nThis package's version."},
    {"libversion", cfl_libversion, METH_NOARGS, "libversion() -> (str, int)\n\nThe librdkafka version in use."},
    {"murmur2", (PyCFunction)(void (*)(void))cfl_murmur2, METH_VARARGS | METH_KEYWORDS,
     "murmur2(key, partition_count) -> int\n\nThe partition of the Java client's default partitioner\nfor key: bytes or another bytes-like object (encode a str key first)."},
    {"consistent", (PyCFunction)(void (*)(void))cfl_consistent, METH_VARARGS | METH_KEYWORDS,
     "consistent(key, partition_count) -> int\n\nThe partition of librdkafka's CRC32 partitioner\nfor key: bytes or another bytes-like object (encode a str key first)."},
    {"_records", (PyCFunction)(void (*)(void))cfl_records, METH_FASTCALL,
     "_records(messages, cls, layout, names=None, by=None, /)\n--\n\nA list with one cls per Message, fields by layout codes (the facades' record builder); with by, a dict of by(topic, partition) to lists, or None when a message carries an error."},
    {"_record", (PyCFunction)(void (*)(void))cfl_record, METH_FASTCALL,
     "_record(message, cls, layout, names=None, /)\n--\n\n_records([message], cls, layout, names)[0] (aiokafka's getone())."},
    {"fnv1a", (PyCFunction)(void (*)(void))cfl_fnv1a, METH_VARARGS | METH_KEYWORDS,
     "fnv1a(key, partition_count) -> int\n\nThe partition of librdkafka's FNV-1a partitioner\nfor key: bytes or another bytes-like object (encode a str key first)."},
    {"_check_keywords", (PyCFunction)(void (*)(void))cfl_check_keywords, METH_FASTCALL,
     "_check_keywords(names, kwargs, /)\n--\n\nRaise the interpreter's own TypeError for a keyword of kwargs not in names."},
    {NULL},
};

/* ---- module lifecycle ------------------------------------------------------------------- */

static int add_constants(PyObject *m) {
    static const struct { const char *name; long long value; } ints[] = {
        {"OFFSET_BEGINNING", RD_KAFKA_OFFSET_BEGINNING},
        {"OFFSET_END", RD_KAFKA_OFFSET_END},
        {"OFFSET_STORED", RD_KAFKA_OFFSET_STORED},
        {"OFFSET_INVALID", RD_KAFKA_OFFSET_INVALID},
        {"TIMESTAMP_NOT_AVAILABLE", RD_KAFKA_TIMESTAMP_NOT_AVAILABLE},
        {"TIMESTAMP_CREATE_TIME", RD_KAFKA_TIMESTAMP_CREATE_TIME},
        {"TIMESTAMP_LOG_APPEND_TIME", RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME},
    };
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
        if (PyModule_AddIntConstant(m, ints[i].name, (long)ints[i].value) < 0)
            return -1;
    return PyModule_AddStringConstant(m, "BUILD_LIBRDKAFKA_VERSION", BUILD_LIBRDKAFKA_VERSION);
}

static int intern_keywords(cfl_state *st) {
    static const char *names[] = {
#define CFL_KW_NAME(name) #name,
        CFL_KEYWORDS(CFL_KW_NAME)
#undef CFL_KW_NAME
    };
    for (int i = 0; i < CFL_KW__COUNT; i++)
        if ((st->kw[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return -1;
    return 0;
}

static int cfl_exec(PyObject *m) {
    cfl_state *st = cfl_get_state(m);
    cfl_fork_watch();
    if (intern_keywords(st) < 0 || cfl_error_init_types(m, st) < 0 || cfl_message_init_type(m, st) < 0 ||
        cfl_topic_partition_init_type(m, st) < 0 || cfl_producer_init_type(m, st) < 0 ||
        cfl_consumer_init_type(m, st) < 0 || cfl_mock_init_type(m, st) < 0 || cfl_admin_init_type(m, st) < 0 ||
        cfl_arrow_init_type(m, st) < 0 || cfl_slot_field_init_type(m, st) < 0 ||
        cfl_record_future_init_type(m, st) < 0 || add_constants(m) < 0)
        return -1;
    return 0;
}

static int cfl_traverse(PyObject *m, visitproc visit, void *arg) {
    cfl_state *st = cfl_get_state(m);
    Py_VISIT(st->KafkaErrorType);
    Py_VISIT(st->MessageType);
    Py_VISIT(st->TopicPartitionType);
    Py_VISIT(st->ProducerType);
    Py_VISIT(st->ConsumerType);
    Py_VISIT(st->MockClusterType);
    Py_VISIT(st->AdminClientImplType);
    Py_VISIT(st->ArrowBatchType);
    Py_VISIT(st->SlotFieldType);
    Py_VISIT(st->RecordFutureType);
    Py_VISIT(st->KafkaException);
    Py_VISIT(st->ThrottleEvent);
    Py_VISIT(st->metadata_module);
    Py_VISIT(st->partial);
    return 0;
}

static int cfl_clear(PyObject *m) {
    cfl_state *st = cfl_get_state(m);
    Py_CLEAR(st->KafkaErrorType);
    Py_CLEAR(st->MessageType);
    Py_CLEAR(st->TopicPartitionType);
    Py_CLEAR(st->ProducerType);
    Py_CLEAR(st->ConsumerType);
    Py_CLEAR(st->MockClusterType);
    Py_CLEAR(st->AdminClientImplType);
    Py_CLEAR(st->ArrowBatchType);
    Py_CLEAR(st->SlotFieldType);
    Py_CLEAR(st->RecordFutureType);
    Py_CLEAR(st->KafkaException);
    Py_CLEAR(st->ThrottleEvent);
    Py_CLEAR(st->metadata_module);
    Py_CLEAR(st->partial);
    for (int i = 0; i < CFL_KW__COUNT; i++)
        Py_CLEAR(st->kw[i]);
    return 0;
}

static void cfl_free(void *m) { cfl_clear((PyObject *)m); }

static PyModuleDef_Slot cfl_slots[] = {
    {Py_mod_exec, cfl_exec},
#ifdef Py_GIL_DISABLED
    /* Safe without the GIL: shared state is atomic or in critical sections, clients count their
     * users before close() frees them (handle.h, compat.h; docs/threading.md). */
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

PyModuleDef cfl_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = CFL_MODULE_NAME,
    .m_doc = "The C core of confluent_kafka: clients and value types over librdkafka.",
    .m_size = sizeof(cfl_state),
    .m_methods = cfl_functions,
    .m_slots = cfl_slots,
    .m_traverse = cfl_traverse,
    .m_clear = cfl_clear,
    .m_free = cfl_free,
};

PyMODINIT_FUNC PyInit_cimpl(void) { return PyModuleDef_Init(&cfl_module_def); }
