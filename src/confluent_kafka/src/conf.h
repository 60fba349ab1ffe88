/* Client configuration: a dict and/or keyword arguments to rd_kafka_conf_t. */
#ifndef CFL_CONF_H
#define CFL_CONF_H
#include "handle.h"

/* Build the librdkafka configuration for `h` (whose kind is set) from the constructor's
 * arguments `(conf, **kwargs)`. Python-only keys are stored on the handle and the matching
 * librdkafka callbacks registered. Returns NULL with TypeError/ValueError (the arguments, a
 * callback that is not callable, a consumer without group.id) or KafkaException(_INVALID_ARG)
 * (a key or value librdkafka refuses) set. */
rd_kafka_conf_t *cfl_conf_build(Handle *h, cfl_state *st, PyObject *args, PyObject *kwargs);

/* Property `name` of `conf` as text in `dest` (cut to size - 1 bytes; "" when unknown or unset).
 * Returns the whole value's length: 0 for none, size or more when it was cut. */
size_t cfl_conf_text(const rd_kafka_conf_t *conf, const char *name, char *dest, size_t size);

#endif
