/* Consumer.consume_arrow(): consumed records straight into Arrow columns, no Message objects.
 *
 * A batch holds data only. End-of-partition events are dropped (the watermarks tell where a
 * partition ends). The first other error ends the batch: the records before it are returned,
 * and the error is raised by the next call; with nothing before it, it is raised at once.
 * Records that did not make it into the batch (after an error, or past the 2 GiB a binary
 * column can hold) wait as Messages for the next call, so nothing fetched is lost. */
#include "arrow.h"
#include "consumer.h"
#include "error.h"
#include "message.h"

static int is_data(const MessageObject *m) { return m->error == NULL; }

static int is_eof(const MessageObject *m) {
    return m->error != NULL && ((KafkaErrorObject *)m->error)->code == RD_KAFKA_RESP_ERR__PARTITION_EOF;
}

/* Return the batch of `taken` rows and put `rest` (Messages) back for the next call. With no
 * rows and an error first in `rest`, raise that error instead. Consumes b and rest. */
static PyObject *finish(Handle *self, CflArrowBuilder *b, Py_ssize_t taken, PyObject *rest) {
    if (PyList_GET_SIZE(rest) > 0 && taken == 0) {
        MessageObject *first = (MessageObject *)PyList_GET_ITEM(rest, 0);
        if (!is_data(first)) {
            PyObject *err = Py_NewRef(first->error);
            PyList_SetSlice(rest, 0, 1, NULL);
            cfl_consumer_stash(self, rest, 1);
            Py_DECREF(rest);
            cfl_arrow_builder_free(b);
            cfl_raise_error_obj(self->st, err);
            Py_DECREF(err);
            return NULL;
        }
    }
    cfl_consumer_stash(self, rest, 1);
    Py_DECREF(rest);
    return cfl_arrow_batch_new(self->st, b);
}

/* The batch from Messages an earlier call left behind. */
static PyObject *from_stash(Handle *self, Py_ssize_t want, int with_headers) {
    PyObject *list = cfl_consumer_fetch(self, want, 0);
    if (list == NULL)
        return NULL;
    /* Keep the data messages before the first error; drop end-of-partition events. */
    PyObject *data = PyList_New(0), *rest = NULL;
    Py_ssize_t i = 0, n = PyList_GET_SIZE(list);
    for (; data != NULL && i < n; i++) {
        MessageObject *m = (MessageObject *)PyList_GET_ITEM(list, i);
        if (is_eof(m))
            continue;
        if (!is_data(m))
            break;
        if (PyList_Append(data, (PyObject *)m) < 0)
            Py_CLEAR(data);
    }
    Py_ssize_t taken = 0;
    CflArrowBuilder *b = data ? cfl_arrow_builder_from_messages(PySequence_Fast_ITEMS(data), PyList_GET_SIZE(data),
                                                               with_headers, &taken)
                              : NULL;
    if (b != NULL) {
        rest = PyList_GetSlice(data, taken, PyList_GET_SIZE(data));
        PyObject *tail = rest ? PyList_GetSlice(list, i, n) : NULL;
        if (tail == NULL || PyList_SetSlice(rest, PyList_GET_SIZE(rest), PyList_GET_SIZE(rest), tail) < 0)
            Py_CLEAR(rest);
        Py_XDECREF(tail);
    }
    Py_XDECREF(data);
    if (rest == NULL) {
        cfl_consumer_stash(self, list, 1); /* nothing lost: all of it is served again */
        Py_DECREF(list);
        cfl_arrow_builder_free(b);
        return NULL;
    }
    Py_DECREF(list);
    return finish(self, b, taken, rest);
}

static const enum cfl_kw consume_arrow_params[] = {CFL_KW_num_messages, CFL_KW_timeout, CFL_KW_headers};

PyObject *cfl_consumer_consume_arrow(Handle *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *a[3];
    int timeout_ms;
    Py_ssize_t want;
    if (cfl_parse_args(self->st, "consume_arrow", args, nargs, kwnames, consume_arrow_params, 3, 0, a) < 0 ||
        cfl_timeout_ms(a[1], &timeout_ms) < 0 || cfl_consumer_num_messages(a[0], 1000, &want) < 0)
        return NULL;
    if (a[2] != NULL && !PyBool_Check(a[2])) {
        PyErr_Format(PyExc_TypeError, "consume_arrow() headers must be True or False, not %.100s",
                     Py_TYPE(a[2])->tp_name);
        return NULL;
    }
    int with_headers = a[2] != Py_False;
    if (cfl_handle_check(self) < 0)
        return NULL;
    if (cfl_consumer_stash_size(self) > 0)
        return from_stash(self, want, with_headers);

    rd_kafka_message_t **recs = PyMem_Malloc((size_t)want * sizeof(*recs));
    if (recs == NULL)
        return PyErr_NoMemory();
    Py_ssize_t got;
    int rc = cfl_consumer_fetch_records(self, want, timeout_ms, recs, &got);

    /* Data records up to the first error, compacted to the front; end-of-partition dropped. */
    Py_ssize_t ndata = 0, stop = got;
    for (Py_ssize_t i = 0; i < got; i++) {
        if (recs[i]->err == RD_KAFKA_RESP_ERR__PARTITION_EOF && stop == got) {
            rd_kafka_message_destroy(recs[i]);
            continue;
        }
        if (recs[i]->err && stop == got)
            stop = i;
        recs[i < stop ? ndata++ : ndata + (i - stop)] = recs[i];
    }
    Py_ssize_t nrest = got - stop, taken = 0;
    PyObject *exc = rc < 0 ? CFL_FETCH_EXC() : NULL;
    CflArrowBuilder *b = exc == NULL ? cfl_arrow_builder_from_records(recs, ndata, with_headers, self->peek_headers,
                                                                     &taken) : NULL;
    if (b == NULL && exc == NULL)
        exc = CFL_FETCH_EXC();

    /* Whatever is not in the batch becomes Messages for the next call. */
    PyObject *rest = PyList_New(0);
    for (Py_ssize_t i = taken; i < ndata + nrest; i++) {
        PyObject *m = rest ? cfl_consumer_message(self, recs[i]) : NULL;
        if (m == NULL || PyList_Append(rest, m) < 0)
            Py_CLEAR(rest);
        Py_XDECREF(m);
    }
    for (Py_ssize_t i = 0; i < ndata + nrest; i++)
        rd_kafka_message_destroy(recs[i]);
    PyMem_Free(recs);
    if (rest == NULL || exc != NULL) {
        if (rest != NULL) {
            cfl_consumer_stash(self, rest, 1);
            Py_DECREF(rest);
        }
        cfl_arrow_builder_free(b);
        if (exc != NULL)
            CFL_RESTORE_EXC(exc);
        return NULL;
    }
    return finish(self, b, taken, rest);
}
