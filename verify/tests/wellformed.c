#include "wellformed.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *read_whole_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* ---- JSON ---- */

typedef struct {
    const char *s;
    size_t i, n;
    json_stats *st;
    char *err;
    size_t errlen;
    int depth;
} jp;

static int jfail(jp *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(p->err, p->errlen, "at byte %zu: ", p->i);
    if (k >= 0 && (size_t)k < p->errlen)
        vsnprintf(p->err + k, p->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

static void jws(jp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int jvalue(jp *p);

/* On success, if out != NULL, copies up to outlen-1 raw chars of the content. */
static int jstring(jp *p, char *out, size_t outlen)
{
    size_t o = 0;
    if (p->i >= p->n || p->s[p->i] != '"')
        return jfail(p, "expected a string");
    p->i++;
    while (p->i < p->n && p->s[p->i] != '"') {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c < 0x20)
            return jfail(p, "unescaped control character 0x%02x in a string", c);
        if (c == '\\') {
            p->i++;
            if (p->i >= p->n)
                return jfail(p, "unterminated escape");
            char e = p->s[p->i];
            if (e == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (p->i + k >= p->n || !isxdigit((unsigned char)p->s[p->i + k]))
                        return jfail(p, "bad \\u escape");
                p->i += 4;
            } else if (!strchr("\"\\/bfnrt", e)) {
                return jfail(p, "bad escape \\%c", e);
            }
        }
        if (out && o + 1 < outlen)
            out[o++] = (char)c;
        p->i++;
    }
    if (p->i >= p->n)
        return jfail(p, "unterminated string");
    p->i++;
    if (out)
        out[o] = '\0';
    p->st->strings++;
    return 0;
}

static int jnumber(jp *p)
{
    size_t i = p->i;
    if (i < p->n && p->s[i] == '-')
        i++;
    if (i >= p->n || !isdigit((unsigned char)p->s[i]))
        return jfail(p, "bad number");
    if (p->s[i] == '0')
        i++;
    else
        while (i < p->n && isdigit((unsigned char)p->s[i]))
            i++;
    if (i < p->n && p->s[i] == '.') {
        i++;
        if (i >= p->n || !isdigit((unsigned char)p->s[i]))
            return jfail(p, "digits must follow a decimal point");
        while (i < p->n && isdigit((unsigned char)p->s[i]))
            i++;
    }
    if (i < p->n && (p->s[i] == 'e' || p->s[i] == 'E')) {
        i++;
        if (i < p->n && (p->s[i] == '+' || p->s[i] == '-'))
            i++;
        if (i >= p->n || !isdigit((unsigned char)p->s[i]))
            return jfail(p, "bad exponent");
        while (i < p->n && isdigit((unsigned char)p->s[i]))
            i++;
    }
    p->i = i;
    p->st->numbers++;
    return 0;
}

static int jvalue(jp *p)
{
    jws(p);
    if (p->i >= p->n)
        return jfail(p, "unexpected end");
    if (++p->depth > 200)
        return jfail(p, "nesting too deep");
    char c = p->s[p->i];
    int rc = 0;
    if (c == '{') {
        p->i++;
        p->st->objects++;
        jws(p);
        if (p->i < p->n && p->s[p->i] == '}') {
            p->i++;
        } else {
            for (;;) {
                char key[128];
                jws(p);
                if (jstring(p, key, sizeof key) != 0)
                    return -1;
                jws(p);
                if (p->i >= p->n || p->s[p->i] != ':')
                    return jfail(p, "expected ':' after a key");
                p->i++;
                jws(p);
                if (p->st->count_key && strcmp(key, p->st->count_key) == 0 && p->i < p->n && p->s[p->i] == '"') {
                    char val[128];
                    if (jstring(p, val, sizeof val) != 0)
                        return -1;
                    if (p->st->count_value && strcmp(val, p->st->count_value) == 0)
                        p->st->key_value_hits++;
                } else if (jvalue(p) != 0) {
                    return -1;
                }
                jws(p);
                if (p->i < p->n && p->s[p->i] == ',') {
                    p->i++;
                    continue;
                }
                if (p->i < p->n && p->s[p->i] == '}') {
                    p->i++;
                    break;
                }
                return jfail(p, "expected ',' or '}' in an object");
            }
        }
    } else if (c == '[') {
        p->i++;
        p->st->arrays++;
        jws(p);
        if (p->i < p->n && p->s[p->i] == ']') {
            p->i++;
        } else {
            for (;;) {
                if (jvalue(p) != 0)
                    return -1;
                jws(p);
                if (p->i < p->n && p->s[p->i] == ',') {
                    p->i++;
                    continue;
                }
                if (p->i < p->n && p->s[p->i] == ']') {
                    p->i++;
                    break;
                }
                return jfail(p, "expected ',' or ']' in an array");
            }
        }
    } else if (c == '"') {
        rc = jstring(p, NULL, 0);
    } else if (c == '-' || isdigit((unsigned char)c)) {
        rc = jnumber(p);
    } else {
        static const char *const lits[] = {"true", "false", "null"};
        int ok = 0;
        for (int k = 0; k < 3 && !ok; k++) {
            size_t l = strlen(lits[k]);
            if (p->n - p->i >= l && strncmp(p->s + p->i, lits[k], l) == 0) {
                p->i += l;
                ok = 1;
            }
        }
        if (!ok)
            return jfail(p, "unexpected character '%c'", c);
        p->st->literals++;
    }
    p->depth--;
    return rc;
}

int json_validate(const char *text, size_t len, json_stats *st, char *err, size_t errlen)
{
    jp p = {.s = text, .i = 0, .n = len, .st = st, .err = err, .errlen = errlen};
    const char *ck = st->count_key, *cv = st->count_value;
    memset(st, 0, sizeof *st);
    st->count_key = ck;
    st->count_value = cv;
    if (jvalue(&p) != 0)
        return -1;
    jws(&p);
    if (p.i != p.n)
        return jfail(&p, "trailing characters after the value");
    return 0;
}

/* ---- XML ---- */

static int is_name_char(char c) { return isalnum((unsigned char)c) || c == '-' || c == '_' || c == ':' || c == '.'; }

static int xfail(char *err, size_t errlen, size_t at, const char *msg)
{
    snprintf(err, errlen, "at byte %zu: %s", at, msg);
    return -1;
}

/* Text or attribute value: '&' must start a known entity; '<' not allowed. */
static int check_text(const char *s, size_t a, size_t b, int in_attr, char *err, size_t errlen)
{
    for (size_t i = a; i < b; i++) {
        if (s[i] == '<')
            return xfail(err, errlen, i, "'<' in text or attribute");
        if (in_attr && s[i] == '"')
            return xfail(err, errlen, i, "'\"' inside a double-quoted attribute");
        if (s[i] == '&') {
            static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
            int ok = 0;
            for (int k = 0; k < 5 && !ok; k++)
                ok = strncmp(s + i, ents[k], strlen(ents[k])) == 0;
            if (!ok && s[i + 1] == '#') {
                size_t j = i + 2;
                while (j < b && isalnum((unsigned char)s[j]))
                    j++;
                ok = j < b && s[j] == ';' && j > i + 2;
            }
            if (!ok)
                return xfail(err, errlen, i, "'&' that does not start an entity");
        }
    }
    return 0;
}

int xml_validate(const char *s, size_t n, xml_stats *st, char *err, size_t errlen)
{
    char stack[64][64];
    int depth = 0, roots = 0;
    size_t i = 0;
    memset(st, 0, sizeof *st);
    while (i < n) {
        if (s[i] != '<') {
            size_t j = i;
            while (j < n && s[j] != '<')
                j++;
            if (depth == 0) {
                for (size_t k = i; k < j; k++)
                    if (!isspace((unsigned char)s[k]))
                        return xfail(err, errlen, k, "text outside the root element");
            } else if (check_text(s, i, j, 0, err, errlen) != 0) {
                return -1;
            }
            i = j;
            continue;
        }
        if (strncmp(s + i, "<?", 2) == 0) {
            const char *e = strstr(s + i, "?>");
            if (!e)
                return xfail(err, errlen, i, "unterminated processing instruction");
            i = (size_t)(e - s) + 2;
            continue;
        }
        if (strncmp(s + i, "<!--", 4) == 0) {
            const char *e = strstr(s + i + 4, "-->");
            if (!e)
                return xfail(err, errlen, i, "unterminated comment");
            i = (size_t)(e - s) + 3;
            continue;
        }
        if (strncmp(s + i, "<!DOCTYPE", 9) == 0) {
            const char *e = strchr(s + i, '>');
            if (!e)
                return xfail(err, errlen, i, "unterminated DOCTYPE");
            i = (size_t)(e - s) + 1;
            continue;
        }
        int closing = s[i + 1] == '/';
        size_t j = i + 1 + closing, a = j;
        while (j < n && is_name_char(s[j]))
            j++;
        if (j == a || j - a >= 63)
            return xfail(err, errlen, i, "bad tag name");
        char name[64];
        memcpy(name, s + a, j - a);
        name[j - a] = '\0';
        if (closing) {
            while (j < n && isspace((unsigned char)s[j]))
                j++;
            if (j >= n || s[j] != '>')
                return xfail(err, errlen, j, "bad closing tag");
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                return xfail(err, errlen, i, "closing tag does not match the open element");
            depth--;
            i = j + 1;
            continue;
        }
        /* attributes */
        char attrs[32][64];
        int nattrs = 0;
        for (;;) {
            while (j < n && isspace((unsigned char)s[j]))
                j++;
            if (j >= n)
                return xfail(err, errlen, i, "unterminated tag");
            if (s[j] == '>' || (s[j] == '/' && j + 1 < n && s[j + 1] == '>'))
                break;
            size_t an = j;
            while (j < n && is_name_char(s[j]))
                j++;
            if (j == an || j - an >= 63)
                return xfail(err, errlen, j, "bad attribute name");
            char aname[64];
            memcpy(aname, s + an, j - an);
            aname[j - an] = '\0';
            for (int k = 0; k < nattrs; k++)
                if (strcmp(attrs[k], aname) == 0)
                    return xfail(err, errlen, an, "duplicate attribute");
            if (nattrs < 32)
                strcpy(attrs[nattrs++], aname);
            if (j >= n || s[j] != '=')
                return xfail(err, errlen, j, "attribute without '='");
            j++;
            if (j >= n || (s[j] != '"' && s[j] != '\''))
                return xfail(err, errlen, j, "unquoted attribute value");
            char q = s[j++];
            size_t vb = j;
            while (j < n && s[j] != q)
                j++;
            if (j >= n)
                return xfail(err, errlen, vb, "unterminated attribute value");
            if (check_text(s, vb, j, q == '"', err, errlen) != 0)
                return -1;
            j++;
        }
        int empty = s[j] == '/';
        if (depth == 0) {
            if (roots++)
                return xfail(err, errlen, i, "a second root element");
            snprintf(st->root, sizeof st->root, "%s", name);
        }
        st->elements++;
        if (!empty) {
            if (depth >= 64)
                return xfail(err, errlen, i, "nesting too deep");
            strcpy(stack[depth++], name);
        }
        i = j + (empty ? 2 : 1);
    }
    if (depth != 0)
        return xfail(err, errlen, n, "unclosed elements at the end");
    if (roots != 1)
        return xfail(err, errlen, 0, "no root element");
    return 0;
}

int svg_file_validate(const char *path, long min_elements, char *err, size_t errlen)
{
    size_t len;
    char *text = read_whole_file(path, &len);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read", path);
        return -1;
    }
    xml_stats st;
    char why[200];
    int rc = xml_validate(text, len, &st, why, sizeof why);
    if (rc != 0)
        snprintf(err, errlen, "%s: %s", path, why);
    else if (strcmp(st.root, "svg") != 0)
        rc = -1, snprintf(err, errlen, "%s: root element <%s>, not <svg>", path, st.root);
    else if (st.elements < min_elements)
        rc = -1, snprintf(err, errlen, "%s: %ld elements, fewer than %ld", path, st.elements, min_elements);
    free(text);
    return rc;
}
