/* Arrow through the C Data Interface and the PyCapsule protocol (no pyarrow at build time).
 *
 * Import (arrow_import.c): a column given to produce_batch() by any object with
 * __arrow_c_array__ (pyarrow, polars, nanoarrow, ...), read in place while its capsules live.
 * Export (arrow_batch.c): consume_arrow()'s record batch, built in C and handed out as
 * ArrowBatch, an object with __arrow_c_array__ that pyarrow.record_batch() and others accept. */
#ifndef CFL_ARROW_H
#define CFL_ARROW_H
#include "module.h"

/* The ABI structs of the Arrow C Data Interface (arrow.apache.org/docs/format/CDataInterface). */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};
struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
#endif

/* ---- import ---------------------------------------------------------------------------- */

typedef enum {
    CFL_ARROW_BINARY,       /* binary / utf8: int32 offsets */
    CFL_ARROW_LARGE_BINARY, /* large_binary / large_utf8: int64 offsets */
    CFL_ARROW_BINARY_VIEW,  /* binary_view / utf8_view */
    CFL_ARROW_INT,          /* signed or unsigned integers, and timestamps (as milliseconds) */
    CFL_ARROW_LIST,         /* list / large_list / map of (key, value) structs: headers */
} CflArrowKind;

typedef struct CflArrowColumn {
    CflArrowKind kind;
    int width;       /* INT: bytes per value; LIST: bytes per offset */
    int is_signed;   /* INT */
    int64_t ms_mul, ms_div; /* INT: value * ms_mul / ms_div is milliseconds (1/1 for plain ints) */
    int64_t length, offset, null_count;
    const uint8_t *validity;
    const void *values;   /* offsets, integers or views (buffer 1) */
    const uint8_t *data;  /* BINARY kinds: the bytes (buffer 2) */
    const void **buffers; /* BINARY_VIEW: the variadic data buffers start at buffers[2] */
    int64_t n_buffers;
    int64_t entries_offset;           /* LIST: the offset of the entries struct array */
    struct CflArrowColumn *entry_key; /* LIST: the struct's two fields */
    struct CflArrowColumn *entry_value;
} CflArrowColumn;

/* An imported column: the capsules keep the producer's memory alive until released. */
typedef struct {
    PyObject *schema_capsule, *array_capsule;
    CflArrowColumn col, entry_key, entry_value;
} CflArrowImport;

/* Import `obj` as a column if it has __arrow_c_array__. `accept` is a mask of 1 << CflArrowKind.
 * Returns 1 when imported, 0 when obj is not an Arrow array, -1 with an exception set
 * (TypeError naming `what` for an unsupported type). */
int cfl_arrow_import(PyObject *obj, const char *what, unsigned accept, CflArrowImport *imp);
void cfl_arrow_import_release(CflArrowImport *imp);

static inline int cfl_arrow_valid(const uint8_t *validity, int64_t i) {
    return validity == NULL || (validity[i >> 3] >> (i & 7)) & 1;
}

/* Row i (0-based, before the column's offset) of a BINARY kind: 0 for null, else 1 with the
 * bytes in *ptr and *len. */
int cfl_arrow_bytes(const CflArrowColumn *c, int64_t i, const void **ptr, size_t *len);
/* Row i of an INT column: 0 for null, else 1 with the value (timestamps in ms) in *out. */
int cfl_arrow_int(const CflArrowColumn *c, int64_t i, int64_t *out);
/* Row i of a LIST column: 0 for null, else 1 with the entries [*start, *end) of entry_key and
 * entry_value (indexes for cfl_arrow_bytes, already including the entries' offset). */
int cfl_arrow_list(const CflArrowColumn *c, int64_t i, int64_t *start, int64_t *end);

/* ---- export ---------------------------------------------------------------------------- */

/* Collects consumed records into the columns of consume_arrow()'s batch:
 * key binary, value binary, topic utf8, partition int32, offset int64, timestamp
 * timestamp[ms, UTC], timestamp_type int32, headers list<struct<key utf8, value binary>>. */
typedef struct CflArrowBuilder CflArrowBuilder;

/* A builder sized for the records rkms[0..n); it takes only as many as fit the int32 offsets
 * of the binary columns: *taken tells how many. With with_headers 0 the headers column is all
 * null and no header is looked at (a lookup costs more than the rest of a small record);
 * peek_headers lets cfl_record_headerless() answer before librdkafka's lookup.
 * NULL with MemoryError set on failure. */
CflArrowBuilder *cfl_arrow_builder_from_records(rd_kafka_message_t **rkms, Py_ssize_t n, int with_headers,
                                                int peek_headers, Py_ssize_t *taken);
/* The same from Message objects (data messages only). */
CflArrowBuilder *cfl_arrow_builder_from_messages(PyObject *const *msgs, Py_ssize_t n, int with_headers,
                                                 Py_ssize_t *taken);
/* Drop a builder that will not become a batch (NULL is fine). Needs no GIL. */
void cfl_arrow_builder_free(CflArrowBuilder *b);
/* The ArrowBatch holding the builder's columns (the builder is consumed either way). */
PyObject *cfl_arrow_batch_new(cfl_state *st, CflArrowBuilder *b);

int cfl_arrow_init_type(PyObject *module, cfl_state *st);

#endif
