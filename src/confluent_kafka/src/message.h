/* Message: a consumed record, a delivery report, or one a user built (e.g. for tests). */
#ifndef CFL_MESSAGE_H
#define CFL_MESSAGE_H
#include "module.h"

typedef struct {
    PyObject_HEAD
    PyObject *topic;   /* NULL means None, for every PyObject field */
    PyObject *value;
    PyObject *key;
    PyObject *headers; /* a list, or the user's headers object when headers_raw is set */
    PyObject *error;
    rd_kafka_headers_t *c_headers; /* a consumed record's headers, converted on first access */
    int64_t offset;
    int64_t timestamp;
    int64_t latency_us; /* -1 when not a delivery report */
    int32_t partition;
    int32_t leader_epoch;
    int tstype;
    int delivery_count; /* share consumers only; <= 0: none */
    char headers_raw;   /* headers holds a delivery report's user object, normalized on access */
} MessageObject;

int cfl_message_init_type(PyObject *module, cfl_state *st);

/* A Message from a consumed record (copies key and value, takes the headers). `topic` is a
 * borrowed cached name or NULL; with peek_headers, cfl_record_headerless() may spare librdkafka's
 * header lookup. */
PyObject *cfl_message_from_rkm(cfl_state *st, rd_kafka_message_t *rkm, PyObject *topic, int peek_headers);
/* 1 when a fetched record surely has no header (read from its wire bytes); 0: ask librdkafka. */
int cfl_record_headerless(const rd_kafka_message_t *rkm);

/* A bare Message to be filled in by the caller (every field unset: partition -1, offset
 * OFFSET_INVALID, no latency, leader epoch or delivery count). */
MessageObject *cfl_message_alloc(cfl_state *st);

/* librdkafka headers from a list of (name, value) pairs or a dict. *out is NULL for None. */
int cfl_headers_from_py(PyObject *obj, rd_kafka_headers_t **out);

/* A list of (str, bytes|None) from the user's headers object (list of pairs or dict). */
PyObject *cfl_headers_normalize(PyObject *obj);

/* The most fields a record class filled slot by slot may have (see by_slot). */
#define CFL_RECORD_MAX_SLOTS 16

/* How the facades' records are made from messages (see cfl_records for the layout codes). */
typedef struct {
    PyTypeObject *type;    /* the record class */
    PyTypeObject *by;      /* NULL, or the (topic, partition) named tuple records are grouped by */
    const char *codes;     /* the layout */
    Py_ssize_t nfields;
    PyObject *names;       /* borrowed: attribute names, for a class that is not a named tuple */
    PyObject *empty;       /* owned: () for such a class's tp_new */
    setattrofunc setattro; /* PyObject_GenericSetAttr when the class has no __setattr__ of its own */
    int as_tuple;
    int by_slot;           /* every name is a writable object slot of the class ... */
    Py_ssize_t slot[CFL_RECORD_MAX_SLOTS]; /* ... at these offsets in the instance */
    int untrack;           /* by_slot, every slot a _SlotField and the class has nothing else:
                            * a record of atomic values is left out of the garbage collector */
} CflRecordSpec;

/* Check (cls, layout, names, by) and fill *spec; by may be NULL or None. 0, or -1 with an
 * exception set. cfl_record_spec_release() once done. */
int cfl_record_spec(CflRecordSpec *spec, PyObject *cls, PyObject *layout, PyObject *names, PyObject *by);
void cfl_record_spec_release(CflRecordSpec *spec);
/* For a spec that makes many records: when every field of the class is a writable object slot
 * of its own (ConsumerRecord of the aiokafka facade), the records get their fields stored at the
 * slots' offsets, as a named tuple's items are, instead of by setattr (finding the offsets costs
 * about as much as setting one record's attributes); when those slots are _SlotFields and all
 * the class has, a record of atomic values is not tracked by the garbage collector
 * (slot_field.c). 0, or -1 with an exception set. */
int cfl_record_spec_slots(cfl_state *st, CflRecordSpec *spec);

/* The records of n fetched records without an error (a list, or with spec->by a dict of lists),
 * made without a Message per record. topic_of(ctx, rkm) gives the topic str of a record with a
 * topic as a new reference (NULL with an exception set), released here. The records stay the caller's to destroy. NULL with an exception set on failure. */
PyObject *cfl_records_of_fetched(cfl_state *st, const CflRecordSpec *spec, rd_kafka_message_t **rkms,
                                 Py_ssize_t n, PyObject *(*topic_of)(void *, const rd_kafka_message_t *),
                                 void *ctx, int peek_headers);

/* cimpl._records(messages, cls, layout, names=None, by=None): Messages into named tuples or data
 * class instances in one call (the kafka-python and aiokafka facades' consumer records). */
PyObject *cfl_records(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* cimpl._record(message, cls, layout, names=None): one such record. */
PyObject *cfl_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
