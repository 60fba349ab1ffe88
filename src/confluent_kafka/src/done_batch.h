/* The done-callbacks of the asyncio futures one drain of delivery reports settles, run by one
 * loop callback instead of one loop handle each (see done_batch.c). */
#ifndef CFL_DONE_BATCH_H
#define CFL_DONE_BATCH_H

#include "module.h"

/* What one drain collects: the loop of the futures, (callback, context, future) triples flat in
 * `items`, and how to run them. Zeroed before use; strong references. */
typedef struct {
    PyObject *loop;    /* the loop the items belong to, or NULL */
    int loop_debug;    /* that loop is in debug mode: nothing is collected for it */
    PyObject *items;   /* list, or NULL while empty */
    PyObject *runner;  /* runner(loop, items), called on the loop */
    PyObject *ignored; /* exception classes whose call_soon() failure drops the items */
} CflDoneBatch;

/* A spec's batching item, (future class, runner): 0, or -1 with TypeError naming `what`. */
int cfl_done_batch_check(PyObject *spec_item, const char *what);

/* Before `fut` is settled: when it is exactly the future class of `batching` and has
 * done-callbacks, and its loop is not in debug mode, take them out of it (remove_done_callback())
 * into *taken, a list of (callback, context) pairs, and return 1 (only callbacks whose equality
 * runs no code of the program are taken: functions, builtins and methods of functions); the caller then settles the
 * future (which schedules nothing now) and hands *taken to cfl_done_batch_add(). 0 when nothing
 * was taken (settle as usual); -1 with an exception. A future of another loop than the one `b`
 * holds flushes `b` first. GIL held. */
int cfl_done_batch_take(cfl_state *st, CflDoneBatch *b, PyObject *batching, PyObject *ignored, PyObject *fut,
                        PyObject **taken);

/* After the settling of `fut`, whether or not it succeeded (the future keeps none of them, so they
 * run either way, as a settled future's would): queue the callbacks taken from it, stealing `taken`. 0, or -1
 * with an exception. */
int cfl_done_batch_add(CflDoneBatch *b, PyObject *fut, PyObject *taken);

/* Hand what `b` collected to its loop: loop.call_soon(runner, loop, items). 0, or -1 with the
 * exception (one of `ignored`, a closed loop, is dropped with the items, as set_result() would
 * drop the callbacks). GIL held. */
int cfl_done_batch_flush(cfl_state *st, CflDoneBatch *b);

/* Release every reference of `b` (after a flush). */
void cfl_done_batch_clear(CflDoneBatch *b);

#endif
