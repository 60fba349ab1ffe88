/* Reading Arrow columns given by the PyCapsule interface, in place (see arrow.h). */
#include "arrow.h"

#include <string.h>

static const char *kind_names[] = {"binary or string", "large binary or string", "binary or string view",
                                   "integer or timestamp", "list of (key, value) structs"};

static int unsupported(const char *what, const char *format, unsigned accept) {
    char wanted[200] = "";
    for (int k = 0; k <= CFL_ARROW_LIST; k++) {
        if (!(accept & (1u << k)))
            continue;
        if (wanted[0])
            strncat(wanted, ", ", sizeof(wanted) - strlen(wanted) - 1);
        strncat(wanted, kind_names[k], sizeof(wanted) - strlen(wanted) - 1);
    }
    PyErr_Format(PyExc_TypeError, "%s: Arrow type '%s' is not supported here (expected %s)", what, format, wanted);
    return -1;
}

static int malformed(const char *what, const char *why) {
    PyErr_Format(PyExc_ValueError, "%s: malformed Arrow array (%s)", what, why);
    return -1;
}

/* The kind and parameters of a format string; -1 when it is none of ours. */
static int parse_format(const char *f, CflArrowColumn *c) {
    c->ms_mul = c->ms_div = 1;
    c->is_signed = 1;
    if (!strcmp(f, "z") || !strcmp(f, "u"))
        return c->kind = CFL_ARROW_BINARY, 0;
    if (!strcmp(f, "Z") || !strcmp(f, "U"))
        return c->kind = CFL_ARROW_LARGE_BINARY, 0;
    if (!strcmp(f, "vz") || !strcmp(f, "vu"))
        return c->kind = CFL_ARROW_BINARY_VIEW, 0;
    if (!strcmp(f, "+l") || !strcmp(f, "+m"))
        return c->kind = CFL_ARROW_LIST, c->width = 4, 0;
    if (!strcmp(f, "+L"))
        return c->kind = CFL_ARROW_LIST, c->width = 8, 0;
    if (f[0] != '\0' && f[1] == '\0' && strchr("cCsSiIlL", f[0])) {
        static const char codes[] = "cCsSiIlL";
        int at = (int)(strchr(codes, f[0]) - codes);
        c->kind = CFL_ARROW_INT;
        c->width = 1 << (at / 2);
        c->is_signed = at % 2 == 0;
        return 0;
    }
    if (f[0] == 't' && f[1] == 's' && f[2] != '\0' && f[3] == ':') {
        c->kind = CFL_ARROW_INT;
        c->width = 8;
        switch (f[2]) {
        case 's': c->ms_mul = 1000; return 0;
        case 'm': return 0;
        case 'u': c->ms_div = 1000; return 0;
        case 'n': c->ms_div = 1000000; return 0;
        }
    }
    return -1;
}

static int column_init(const struct ArrowSchema *s, const struct ArrowArray *a, const char *what, unsigned accept,
                       CflArrowColumn *c, CflArrowColumn *entry_key, CflArrowColumn *entry_value) {
    memset(c, 0, sizeof(*c));
    if (s->format == NULL || a->release == NULL)
        return malformed(what, "released or without a format");
    if (s->dictionary != NULL)
        return unsupported(what, "dictionary-encoded", accept);
    if (parse_format(s->format, c) < 0 || !(accept & (1u << c->kind)))
        return unsupported(what, s->format, accept);
    if (a->length < 0 || a->offset < 0 || a->null_count < -1)
        return malformed(what, "negative length or offset");
    c->length = a->length;
    c->offset = a->offset;
    c->null_count = a->null_count;
    int64_t want_buffers = c->kind == CFL_ARROW_BINARY || c->kind == CFL_ARROW_LARGE_BINARY ? 3 : 2;
    if (a->n_buffers < want_buffers + (c->kind == CFL_ARROW_BINARY_VIEW) || a->buffers == NULL)
        return malformed(what, "too few buffers");
    c->validity = a->null_count == 0 ? NULL : (const uint8_t *)a->buffers[0];
    c->values = a->buffers[1];
    if (c->values == NULL && a->length > 0)
        return malformed(what, "missing values buffer");
    if (c->kind == CFL_ARROW_BINARY || c->kind == CFL_ARROW_LARGE_BINARY)
        c->data = (const uint8_t *)a->buffers[2];
    if (c->kind == CFL_ARROW_BINARY_VIEW) {
        c->buffers = a->buffers;
        c->n_buffers = a->n_buffers - 1; /* the last one holds the variadic buffers' sizes */
    }
    if (c->kind != CFL_ARROW_LIST)
        return 0;

    /* headers: list<struct<key: binary|string, value: binary|string>> (a map is the same shape) */
    if (s->n_children != 1 || a->n_children != 1)
        return malformed(what, "a list needs one child");
    const struct ArrowSchema *es = s->children[0];
    const struct ArrowArray *ea = a->children[0];
    if (es->format == NULL || strcmp(es->format, "+s") != 0 || es->n_children != 2 || ea->n_children != 2) {
        PyErr_Format(PyExc_TypeError, "%s: the list items must be (key, value) structs", what);
        return -1;
    }
    c->entries_offset = ea->offset;
    unsigned bin = 1u << CFL_ARROW_BINARY | 1u << CFL_ARROW_LARGE_BINARY | 1u << CFL_ARROW_BINARY_VIEW;
    if (column_init(es->children[0], ea->children[0], what, bin, entry_key, NULL, NULL) < 0 ||
        column_init(es->children[1], ea->children[1], what, bin, entry_value, NULL, NULL) < 0)
        return -1;
    c->entry_key = entry_key;
    c->entry_value = entry_value;
    return 0;
}

int cfl_arrow_import(PyObject *obj, const char *what, unsigned accept, CflArrowImport *imp) {
    memset(imp, 0, sizeof(*imp));
    PyObject *method = PyObject_GetAttrString(obj, "__arrow_c_array__");
    if (method == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        if (PyObject_HasAttrString(obj, "__arrow_c_stream__")) {
            PyErr_Format(PyExc_TypeError, "%s: a chunked Arrow array is not supported; pass one array "
                         "(e.g. chunked.combine_chunks())", what);
            return -1;
        }
        return 0;
    }
    PyObject *pair = PyObject_CallNoArgs(method);
    Py_DECREF(method);
    if (pair == NULL)
        return -1;
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        Py_DECREF(pair);
        PyErr_Format(PyExc_TypeError, "%s: __arrow_c_array__() must return a (schema, array) tuple", what);
        return -1;
    }
    imp->schema_capsule = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
    imp->array_capsule = Py_NewRef(PyTuple_GET_ITEM(pair, 1));
    Py_DECREF(pair);
    struct ArrowSchema *s = PyCapsule_GetPointer(imp->schema_capsule, "arrow_schema");
    struct ArrowArray *a = s ? PyCapsule_GetPointer(imp->array_capsule, "arrow_array") : NULL;
    if (a == NULL || column_init(s, a, what, accept, &imp->col, &imp->entry_key, &imp->entry_value) < 0) {
        cfl_arrow_import_release(imp);
        return -1;
    }
    if (imp->col.entry_key != NULL) { /* point at this struct's copies, not column_init's locals */
        imp->col.entry_key = &imp->entry_key;
        imp->col.entry_value = &imp->entry_value;
    }
    return 1;
}

void cfl_arrow_import_release(CflArrowImport *imp) {
    /* The capsules' destructors release the arrays (PyCapsule interface). */
    Py_CLEAR(imp->schema_capsule);
    Py_CLEAR(imp->array_capsule);
}

int cfl_arrow_bytes(const CflArrowColumn *c, int64_t i, const void **ptr, size_t *len) {
    int64_t j = c->offset + i;
    if (!cfl_arrow_valid(c->validity, j))
        return 0;
    switch (c->kind) {
    case CFL_ARROW_BINARY: {
        const int32_t *o = (const int32_t *)c->values;
        *ptr = c->data + o[j];
        *len = (size_t)(o[j + 1] - o[j]);
        return 1;
    }
    case CFL_ARROW_LARGE_BINARY: {
        const int64_t *o = (const int64_t *)c->values;
        *ptr = c->data + o[j];
        *len = (size_t)(o[j + 1] - o[j]);
        return 1;
    }
    case CFL_ARROW_BINARY_VIEW: {
        const uint8_t *v = (const uint8_t *)c->values + 16 * j;
        int32_t size, buf, off;
        memcpy(&size, v, 4);
        *len = (size_t)size;
        if (size <= 12) {
            *ptr = v + 4;
            return 1;
        }
        memcpy(&buf, v + 8, 4);
        memcpy(&off, v + 12, 4);
        if (buf < 0 || 2 + (int64_t)buf >= c->n_buffers) { /* corrupt view: treat as empty, never read wild */
            *ptr = NULL;
            *len = 0;
            return 1;
        }
        *ptr = (const uint8_t *)c->buffers[2 + buf] + off;
        return 1;
    }
    default:
        return 0;
    }
}

int cfl_arrow_int(const CflArrowColumn *c, int64_t i, int64_t *out) {
    int64_t j = c->offset + i;
    if (!cfl_arrow_valid(c->validity, j))
        return 0;
    const void *p = (const uint8_t *)c->values + (size_t)c->width * (size_t)j;
    int64_t v;
    switch (c->width * (c->is_signed ? 1 : -1)) {
    case 1: v = *(const int8_t *)p; break;
    case -1: v = *(const uint8_t *)p; break;
    case 2: v = *(const int16_t *)p; break;
    case -2: v = *(const uint16_t *)p; break;
    case 4: v = *(const int32_t *)p; break;
    case -4: v = *(const uint32_t *)p; break;
    case -8: {
        uint64_t u = *(const uint64_t *)p;
        v = u > INT64_MAX ? INT64_MAX : (int64_t)u;
        break;
    }
    default: v = *(const int64_t *)p; break;
    }
    if (c->ms_mul != 1)
        *out = v > INT64_MAX / c->ms_mul ? INT64_MAX : v < INT64_MIN / c->ms_mul ? INT64_MIN : v * c->ms_mul;
    else
        *out = v / c->ms_div;
    return 1;
}

int cfl_arrow_list(const CflArrowColumn *c, int64_t i, int64_t *start, int64_t *end) {
    int64_t j = c->offset + i;
    if (!cfl_arrow_valid(c->validity, j))
        return 0;
    if (c->width == 4) {
        const int32_t *o = (const int32_t *)c->values;
        *start = o[j], *end = o[j + 1];
    } else {
        const int64_t *o = (const int64_t *)c->values;
        *start = o[j], *end = o[j + 1];
    }
    *start += c->entries_offset;
    *end += c->entries_offset;
    return 1;
}
