/* KafkaError (a value type) and KafkaException (its exception carrier). */
#ifndef CFL_ERROR_H
#define CFL_ERROR_H
#include "module.h"

typedef struct {
    PyObject_HEAD
    rd_kafka_resp_err_t code;
    PyObject *reason; /* str, or NULL to use librdkafka's text for the code */
    char fatal;
    char retriable;
    char txn_requires_abort;
} KafkaErrorObject;

int cfl_error_init_types(PyObject *module, cfl_state *st);

/* The name and description of an error code: librdkafka's, or this module's for the Kafka
 * protocol codes newer than the librdkafka in use. */
const char *cfl_err_name(int code);
const char *cfl_err_text(int code);

/* New KafkaError; `reason` may be NULL. */
PyObject *cfl_error_new(cfl_state *st, rd_kafka_resp_err_t code, const char *reason);
/* KafkaError or None for RD_KAFKA_RESP_ERR_NO_ERROR. */
PyObject *cfl_error_or_none(cfl_state *st, rd_kafka_resp_err_t code, const char *reason);
/* KafkaError carrying the flags of a rd_kafka_error_t (not destroyed). */
PyObject *cfl_error_from_rd(cfl_state *st, const rd_kafka_error_t *error);

/* New KafkaError whose text is PyUnicode_FromFormat(fmt, ...). */
PyObject *cfl_error_newf(cfl_state *st, rd_kafka_resp_err_t code, const char *fmt, ...);

/* Set KafkaException(KafkaError(code, reason)); always returns NULL. */
PyObject *cfl_raise(cfl_state *st, rd_kafka_resp_err_t code, const char *reason);
/* Set KafkaException(KafkaError(code, PyUnicode_FromFormat(fmt, ...))); always returns NULL. */
PyObject *cfl_raise_fmt(cfl_state *st, rd_kafka_resp_err_t code, const char *fmt, ...);
/* Set KafkaException(KafkaError(code, "<prefix>: <description of code>")), the way each failing
 * call names what failed (e.g. "Commit failed"); always returns NULL. */
PyObject *cfl_raise_prefixed(cfl_state *st, rd_kafka_resp_err_t code, const char *prefix);
/* Set KafkaException from a rd_kafka_error_t and destroy it; always returns NULL. */
PyObject *cfl_raise_rd(cfl_state *st, rd_kafka_error_t *error);
/* Raise a KafkaException whose args[0] is the given KafkaError (borrowed). */
void cfl_raise_error_obj(cfl_state *st, PyObject *kafka_error);

#endif
