/* cimpl._SlotField(member): a data descriptor that stands in for a __slots__ member descriptor
 * (the aiokafka facade's ConsumerRecord fields).
 *
 * A consumer makes one record per message, and a record with its fields in slots is a container
 * the garbage collector watches: every collection walks all records still alive, which was a
 * third of getmany()'s time. A record whose fields are only str, int, bytes, None and tuples of
 * those can never be part of a reference cycle, so the record builders (message.c) leave such a
 * record out of the collector, as CPython does for tuples and dicts of atomic values. It must be
 * watched again as soon as a field is given something that could lead back to it; assignments
 * go through this descriptor, which stores the value with the slot's own member descriptor (same
 * checks, same errors) and then tracks the record when needed. The builders untrack only records
 * of a class whose every slot is one of these (cfl_slots_are_all). */
#include "slot_field.h"

#include "compat.h"

typedef struct {
    PyObject_HEAD
    PyObject *member; /* the slot's member descriptor: reads, stores, deletes and their errors */
} SlotFieldObject;

/* `d` is a writable object slot member descriptor whose class is `type` or a base of it (type
 * NULL: any class). */
static int is_object_slot(PyObject *d, PyTypeObject *type) {
    if (!Py_IS_TYPE(d, &PyMemberDescr_Type))
        return 0;
    PyMemberDef *def = ((PyMemberDescrObject *)d)->d_member;
    return def->type == T_OBJECT_EX && !(def->flags & READONLY) &&
           (type == NULL || PyType_IsSubtype(type, PyDescr_TYPE(d)));
}

static PyObject *SlotField_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"member", NULL};
    PyObject *member;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:_SlotField", kwlist, &member))
        return NULL;
    if (!is_object_slot(member, NULL) || !PyType_IS_GC(PyDescr_TYPE(member))) {
        PyErr_Format(PyExc_TypeError, "_SlotField() takes the member descriptor of a writable __slots__ entry, not %.100s",
                     Py_TYPE(member)->tp_name);
        return NULL;
    }
    SlotFieldObject *self = (SlotFieldObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->member = Py_NewRef(member);
    return (PyObject *)self;
}

static PyObject *SlotField_get(PyObject *op, PyObject *obj, PyObject *type) {
    SlotFieldObject *self = (SlotFieldObject *)op;
    if (obj == NULL)
        return Py_NewRef(op); /* looked up on the class: the field itself */
    return Py_TYPE(self->member)->tp_descr_get(self->member, obj, type);
}

static int SlotField_set(PyObject *op, PyObject *obj, PyObject *value) {
    SlotFieldObject *self = (SlotFieldObject *)op;
    if (Py_TYPE(self->member)->tp_descr_set(self->member, obj, value) < 0)
        return -1;
    if (value != NULL) {
        /* obj is an instance of the slot's class (the store checked it), a collected type */
        Py_BEGIN_CRITICAL_SECTION(obj);
        if (!PyObject_GC_IsTracked(obj) && cfl_may_reach_back(value))
            PyObject_GC_Track(obj);
        Py_END_CRITICAL_SECTION();
    }
    return 0;
}

static PyObject *SlotField_repr(PyObject *op) {
    PyObject *member = ((SlotFieldObject *)op)->member;
    return PyUnicode_FromFormat("<slot field '%U' of '%s' objects>", PyDescr_NAME(member),
                                PyDescr_TYPE(member)->tp_name);
}

static PyObject *SlotField_name(PyObject *op, void *closure) {
    (void)closure;
    return Py_NewRef(PyDescr_NAME(((SlotFieldObject *)op)->member));
}

static PyObject *SlotField_objclass(PyObject *op, void *closure) {
    (void)closure;
    return Py_NewRef((PyObject *)PyDescr_TYPE(((SlotFieldObject *)op)->member));
}

static PyObject *SlotField_member(PyObject *op, void *closure) {
    (void)closure;
    return Py_NewRef(((SlotFieldObject *)op)->member);
}

static PyGetSetDef SlotField_getset[] = {
    {"__name__", SlotField_name, NULL, "The field's name.", NULL},
    {"__objclass__", SlotField_objclass, NULL, "The class whose slot it is.", NULL},
    {"member", SlotField_member, NULL, "The slot's member descriptor.", NULL},
    {NULL},
};

static int SlotField_traverse(PyObject *op, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(op));
    Py_VISIT(((SlotFieldObject *)op)->member);
    return 0;
}

static int SlotField_clear(PyObject *op) {
    Py_CLEAR(((SlotFieldObject *)op)->member);
    return 0;
}

static void SlotField_dealloc(PyObject *op) {
    PyTypeObject *tp = Py_TYPE(op);
    PyObject_GC_UnTrack(op);
    SlotField_clear(op);
    tp->tp_free(op);
    Py_DECREF(tp);
}

static PyType_Slot SlotField_slots[] = {
    {Py_tp_doc, "_SlotField(member)\n\nA __slots__ field whose records may be left out of the garbage "
                "collector while they hold only atomic values (see confluent_kafka.compat.aiokafka)."},
    {Py_tp_new, SlotField_new},
    {Py_tp_dealloc, SlotField_dealloc},
    {Py_tp_traverse, SlotField_traverse},
    {Py_tp_clear, SlotField_clear},
    {Py_tp_repr, SlotField_repr},
    {Py_tp_descr_get, SlotField_get},
    {Py_tp_descr_set, SlotField_set},
    {Py_tp_getset, SlotField_getset},
    {0, NULL},
};

static PyType_Spec SlotField_spec = {
    .name = CFL_QUALNAME("_SlotField"),
    .basicsize = sizeof(SlotFieldObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = SlotField_slots,
};

int cfl_slot_field_init_type(PyObject *module, cfl_state *st) {
    st->SlotFieldType = (PyTypeObject *)PyType_FromModuleAndSpec(module, &SlotField_spec, NULL);
    if (st->SlotFieldType == NULL)
        return -1;
    return PyModule_AddType(module, st->SlotFieldType);
}

int cfl_slot_offset(cfl_state *st, PyTypeObject *type, PyObject *name, Py_ssize_t *offset, int *watched) {
    PyObject *d = PyObject_GetAttr((PyObject *)type, name);
    if (d == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    *watched = Py_IS_TYPE(d, st->SlotFieldType);
    /* A descriptor of another class, assigned to a name here, has an offset valid only there. */
    PyObject *member = *watched ? ((SlotFieldObject *)d)->member : d;
    int ok = is_object_slot(member, type);
    if (ok)
        *offset = ((PyMemberDescrObject *)member)->d_member->offset;
    Py_DECREF(d);
    return ok;
}

int cfl_slots_are_all(PyTypeObject *type, const Py_ssize_t *offsets, Py_ssize_t n) {
    if (type->tp_itemsize != 0 || type->tp_dictoffset != 0)
        return 0;
#ifdef Py_TPFLAGS_MANAGED_DICT
    if (type->tp_flags & Py_TPFLAGS_MANAGED_DICT)
        return 0;
#endif
    Py_ssize_t weak = type->tp_weaklistoffset > 0 ? (Py_ssize_t)sizeof(PyObject *) : 0;
    if (type->tp_basicsize != (Py_ssize_t)sizeof(PyObject) + n * (Py_ssize_t)sizeof(PyObject *) + weak)
        return 0;
    /* n distinct slots, none the weak reference list, fill exactly what follows the header */
    for (Py_ssize_t i = 0; i < n; i++) {
        if (offsets[i] < (Py_ssize_t)sizeof(PyObject) || offsets[i] >= type->tp_basicsize ||
            (weak && offsets[i] == type->tp_weaklistoffset))
            return 0;
        for (Py_ssize_t j = 0; j < i; j++)
            if (offsets[j] == offsets[i])
                return 0;
    }
    return 1;
}

/* A tuple or a tuple subclass without an instance dict (a named tuple): nothing in it changes. */
static int is_frozen_tuple(PyObject *v) {
    PyTypeObject *t = Py_TYPE(v);
    if (!PyTuple_Check(v) || t->tp_dictoffset != 0 || t->tp_basicsize != PyTuple_Type.tp_basicsize)
        return 0;
#ifdef Py_TPFLAGS_MANAGED_DICT
    if (t->tp_flags & Py_TPFLAGS_MANAGED_DICT)
        return 0;
#endif
    return 1;
}

/* Headers are a tuple of (str, bytes) tuples: two levels of tuples are looked into. */
static int reach_back(PyObject *v, int depth) {
    if (!PyObject_IS_GC(v))
        return 0;
    if (!is_frozen_tuple(v) || depth == 0)
        return 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v); i++)
        if (reach_back(PyTuple_GET_ITEM(v, i), depth - 1))
            return 1;
    return 0;
}

int cfl_may_reach_back_slow(PyObject *v) { return reach_back(v, 2); }
