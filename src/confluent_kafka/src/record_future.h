/* cimpl._RecordFuture: the C core of the kafka-python facade's FutureRecordMetadata, settled by
 * the producer's delivery reports without a Python call per record (see record_future.c). */
#ifndef CFL_RECORD_FUTURE_H
#define CFL_RECORD_FUTURE_H

#include "handle.h"

int cfl_record_future_init_type(PyObject *module, cfl_state *st);

/* A new, unsettled future of `type` (_RecordFuture or a subclass) with get()'s wait function and
 * args, (timestamp_ms, key size, value size, header size). NULL with an exception set. */
PyObject *cfl_record_future_new(PyTypeObject *type, PyObject *wait, PyObject *args);

/* 0 when `args` is a valid (timestamp_ms, key size, value size, header size); -1 with TypeError. */
int cfl_record_future_check_args(PyObject *args);

/* A successful delivery report: settle `fut` with the record's place (its RecordMetadata, built
 * from spec[0] and spec[1] as _produce_future()'s spec describes, when someone asks) and run its
 * callbacks. A future already settled stays as it was. 0, or -1 with the exception a callback
 * raised (when its class wants it raised). GIL held. */
int cfl_record_future_delivered(PyObject *fut, PyObject *spec, PyObject *topic, const DrEntry *e);

#endif
