/* Producer: produce, poll/flush, purge, transactions. */
#ifndef CFL_PRODUCER_H
#define CFL_PRODUCER_H
#include "handle.h"

int cfl_producer_init_type(PyObject *module, cfl_state *st);

#endif
