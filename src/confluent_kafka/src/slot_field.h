/* cimpl._SlotField: a record field kept in a __slots__ slot, whose records the record builders
 * may leave out of the garbage collector (see slot_field.c). */
#ifndef CFL_SLOT_FIELD_H
#define CFL_SLOT_FIELD_H

#include "module.h"

int cfl_slot_field_init_type(PyObject *module, cfl_state *st);

/* Where attribute `name` of `type`'s instances lives: 1 and *offset when it is a writable object
 * slot (a __slots__ member of type or of a base, plain or wrapped in a _SlotField), with
 * *watched = 1 when it is a _SlotField; 0 when it is anything else; -1 with an exception set. */
int cfl_slot_offset(cfl_state *st, PyTypeObject *type, PyObject *name, Py_ssize_t *offset, int *watched);

/* 1 when `type`'s instances hold nothing but the object slots at the n offsets given and a weak
 * reference list: no instance dict, no other field. */
int cfl_slots_are_all(PyTypeObject *type, const Py_ssize_t *offsets, Py_ssize_t n);

int cfl_may_reach_back_slow(PyObject *v);

/* 0 when `v` can never lead back to an object that holds it: not a container the garbage
 * collector watches, or an immutable tuple (or named tuple) of such items. 1 when it may. The
 * common answer (str, int, bytes, None: not collected types) inline. */
static inline int cfl_may_reach_back(PyObject *v) {
    return PyType_IS_GC(Py_TYPE(v)) && cfl_may_reach_back_slow(v);
}

#endif
