/* The done-callbacks of the asyncio futures one drain of delivery reports settles.
 *
 * asyncio's Future.set_result() schedules each done-callback as a loop handle of its own
 * (loop.call_soon(): a Handle made, queued, popped and run, all in Python), which costs more than
 * the rest of a delivered message's path when every future is awaited, as asyncio.gather() and a
 * task awaiting the future do. The drain takes the callbacks out of each future before settling
 * it and schedules them all as one loop callback, runner(loop, items), at the end of the drain.
 * What a caller observes is unchanged: every callback runs on the loop, after the drain, in the
 * order set_result() would have scheduled them, each in its own context, and one that raises is
 * reported to the loop's exception handler without stopping the others (the runner's job).
 * A loop in debug mode keeps one handle per callback, for its slow-callback warnings. */
#include "done_batch.h"

int cfl_done_batch_check(PyObject *item, const char *what) {
    if (!PyTuple_CheckExact(item) || PyTuple_GET_SIZE(item) != 2 || !PyType_Check(PyTuple_GET_ITEM(item, 0)) ||
        !PyCallable_Check(PyTuple_GET_ITEM(item, 1))) {
        PyErr_Format(PyExc_TypeError, "%s must be (future class, runner callable)", what);
        return -1;
    }
    return 0;
}

/* Make `loop` the one `b` collects for, flushing what it held for another. */
static int switch_loop(cfl_state *st, CflDoneBatch *b, PyObject *loop, PyObject *runner, PyObject *ignored) {
    if (cfl_done_batch_flush(st, b) < 0)
        return -1;
    PyObject *debug = PyObject_CallMethodNoArgs(loop, st->kw[CFL_KW_get_debug]);
    int on = debug != NULL ? PyObject_IsTrue(debug) : -1;
    Py_XDECREF(debug);
    if (on < 0)
        return -1;
    Py_XSETREF(b->loop, Py_NewRef(loop));
    Py_XSETREF(b->runner, Py_NewRef(runner));
    Py_XSETREF(b->ignored, Py_NewRef(ignored));
    b->loop_debug = on;
    return 0;
}

/* A callback whose equality runs no code of the program: a function, a builtin (a task's wake-up),
 * or a method of a function (compared by its object's identity). remove_done_callback() compares
 * the callback with every other one of the future; with these it cannot raise, so a future's
 * callbacks are either all taken or all left in it. */
static int plain_callable(PyObject *cb) {
    if (PyFunction_Check(cb) || PyCFunction_Check(cb))
        return 1;
    return PyMethod_Check(cb) && PyFunction_Check(PyMethod_GET_FUNCTION(cb));
}

int cfl_done_batch_take(cfl_state *st, CflDoneBatch *b, PyObject *batching, PyObject *ignored, PyObject *fut,
                        PyObject **taken) {
    *taken = NULL;
    if (!Py_IS_TYPE(fut, (PyTypeObject *)PyTuple_GET_ITEM(batching, 0)))
        return 0;
    PyObject *cbs = PyObject_GetAttr(fut, st->kw[CFL_KW__callbacks]);
    if (cbs == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear(); /* a future that does not show its callbacks keeps them */
        return 0;
    }
    /* None (asyncio's C future) or an empty list (its Python one): nothing to take. */
    if (!PyList_CheckExact(cbs) || PyList_GET_SIZE(cbs) == 0)
        goto keep;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cbs); i++) {
        PyObject *pair = PyList_GET_ITEM(cbs, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 || !plain_callable(PyTuple_GET_ITEM(pair, 0)))
            goto keep;
    }
    PyObject *loop = PyObject_CallMethodNoArgs(fut, st->kw[CFL_KW_get_loop]);
    if (loop == NULL)
        goto fail;
    int rc = loop == b->loop ? 0 : switch_loop(st, b, loop, PyTuple_GET_ITEM(batching, 1), ignored);
    Py_DECREF(loop);
    if (rc < 0)
        goto fail;
    if (b->loop_debug)
        goto keep;
    /* The list is a copy: removing from the future leaves it whole. */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cbs); i++) {
        PyObject *n = PyObject_CallMethodOneArg(fut, st->kw[CFL_KW_remove_done_callback],
                                                PyTuple_GET_ITEM(PyList_GET_ITEM(cbs, i), 0));
        if (n == NULL)
            goto fail; /* out of memory */
        Py_DECREF(n);
    }
    *taken = cbs;
    return 1;
keep:
    Py_DECREF(cbs);
    return 0;
fail:
    Py_DECREF(cbs);
    return -1;
}

int cfl_done_batch_add(CflDoneBatch *b, PyObject *fut, PyObject *taken) {
    int rc = 0;
    if (b->items == NULL && (b->items = PyList_New(0)) == NULL)
        rc = -1;
    for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(taken); i++) {
        PyObject *pair = PyList_GET_ITEM(taken, i);
        if (PyList_Append(b->items, PyTuple_GET_ITEM(pair, 0)) < 0 ||
            PyList_Append(b->items, PyTuple_GET_ITEM(pair, 1)) < 0 || PyList_Append(b->items, fut) < 0)
            rc = -1;
    }
    Py_DECREF(taken);
    return rc;
}

int cfl_done_batch_flush(cfl_state *st, CflDoneBatch *b) {
    if (b->items == NULL)
        return 0;
    PyObject *items = b->items;
    b->items = NULL;
    PyObject *args[4] = {b->loop, b->runner, b->loop, items}; /* loop.call_soon(runner, loop, items) */
    PyObject *res = PyObject_VectorcallMethod(st->kw[CFL_KW_call_soon], args, 4, NULL);
    Py_DECREF(items);
    if (res == NULL) {
        if (PyErr_ExceptionMatches(b->ignored)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

void cfl_done_batch_clear(CflDoneBatch *b) {
    Py_CLEAR(b->loop);
    Py_CLEAR(b->items);
    Py_CLEAR(b->runner);
    Py_CLEAR(b->ignored);
}
