/* The shared JSON and SVG writers (common/) produce well-formed output,
 * checked by the independent parsers in wellformed.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pg_alloc.h"
#include "pg_error.h"
#include "pg_json.h"
#include "pg_svg.h"
#include "wellformed.h"

static char *capture_json(void (*fill)(pg_json *), int pretty, int *finish_rc, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    pg_json j;
    pg_json_init(&j, f, pretty);
    fill(&j);
    *finish_rc = pg_json_finish(&j);
    fclose(f);
    return buf;
}

static void fill_nasty(pg_json *j)
{
    static const double nums[] = {0.0, -0.0, 1e-310, 1.5, -2.25e300, NAN, INFINITY, -INFINITY, 0.1, 123456789.0};
    static const int64_t ints[] = {INT64_MIN, -1, 0, INT64_MAX};
    pg_json_object_begin(j);
    pg_json_kv_string(j, "quote\"back\\slash", "tab\tnl\ncr\rbell\x07 ctl\x1f utf8 \xc2\xb5s");
    pg_json_kv_number(j, "nan", NAN);
    pg_json_kv_number(j, "inf", -INFINITY);
    pg_json_kv_int(j, "min", INT64_MIN);
    pg_json_kv_bool(j, "t", 1);
    pg_json_key(j, "null");
    pg_json_null(j);
    pg_json_key(j, "s");
    pg_json_string(j, NULL);
    pg_json_key(j, "nums");
    pg_json_number_array(j, nums, 10);
    pg_json_key(j, "ints");
    pg_json_int_array(j, ints, 4);
    pg_json_key(j, "empty_obj");
    pg_json_object_begin(j);
    pg_json_object_end(j);
    pg_json_key(j, "nested");
    pg_json_array_begin(j);
    for (int i = 0; i < 3; i++) {
        pg_json_array_begin(j);
        pg_json_object_begin(j);
        pg_json_kv_string(j, "k", "v");
        pg_json_object_end(j);
        pg_json_array_end(j);
    }
    pg_json_key(j, "oops"); /* a key inside an array: misuse */
    pg_json_array_end(j);
    pg_json_object_end(j);
}

static void fill_good(pg_json *j)
{
    static const double nums[] = {0.0, -0.0, 1e-310, 1.5, -2.25e300, NAN, INFINITY, -INFINITY, 0.1, 123456789.0};
    pg_json_object_begin(j);
    pg_json_kv_string(j, "quote\"back\\slash", "tab\tnl\ncr\rbell\x07 ctl\x1f utf8 \xc2\xb5s");
    pg_json_kv_number(j, "nan", NAN);
    pg_json_kv_number(j, "inf", -INFINITY);
    pg_json_kv_int(j, "min", INT64_MIN);
    pg_json_key(j, "nums");
    pg_json_number_array(j, nums, 10);
    pg_json_key(j, "nested");
    pg_json_array_begin(j);
    for (int i = 0; i < 3; i++) {
        pg_json_object_begin(j);
        pg_json_kv_string(j, "k", "v");
        pg_json_object_end(j);
    }
    pg_json_array_end(j);
    pg_json_key(j, "empty");
    pg_json_array_begin(j);
    pg_json_array_end(j);
    pg_json_object_end(j);
}

static void test_json_wellformed(void **state)
{
    (void)state;
    for (int pretty = 0; pretty < 2; pretty++) {
        int rc;
        size_t len;
        char *text = capture_json(fill_good, pretty, &rc, &len);
        assert_int_equal(rc, 0);
        json_stats st = {.count_key = "k", .count_value = "v"};
        char err[200];
        int ok = json_validate(text, len, &st, err, sizeof err);
        if (ok != 0)
            fprintf(stderr, "%s\n%s\n", err, text);
        assert_int_equal(ok, 0);
        assert_int_equal(st.key_value_hits, 3);
        assert_int_equal(st.objects, 4);
        assert_int_equal(st.arrays, 3);
        /* NaN and infinities become null: 3 in nums + "nan" + "inf" */
        assert_int_equal(st.literals, 5);
        assert_non_null(strstr(text, "\\u0007"));
        assert_non_null(strstr(text, "\\\"back\\\\slash"));
        /* numbers round-trip */
        assert_non_null(strstr(text, "0.1"));
        assert_non_null(strstr(text, "-9223372036854775808"));
        free(text);
    }
}

static void fill_bad_utf8(pg_json *j)
{
    pg_json_object_begin(j);
    /* Latin-1 "µs", a stray continuation byte, an overlong '/', a UTF-16
     * surrogate, a code point above U+10FFFF, a cut-off sequence, DEL */
    pg_json_kv_string(j, "name", "\xb5s \x80 \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82 \x7f");
    pg_json_kv_string(j, "good", "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80");
    pg_json_object_end(j);
}

/* Strings from files (a kernel name) may hold any bytes; the JSON must
 * stay valid UTF-8: bad bytes become U+FFFD, good sequences pass. */
static void test_json_invalid_utf8_replaced(void **state)
{
    (void)state;
    int rc;
    size_t len;
    char *text = capture_json(fill_bad_utf8, 0, &rc, &len);
    assert_int_equal(rc, 0);
    assert_string_equal(text, "{\"name\":\"\\ufffds \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd "
                              "\\ufffd\\ufffd\\ufffd\\ufffd \\ufffd\\ufffd \\u007f\",\"good\":\"\xc2\xb5s "
                              "\xe2\x82\xac \xf0\x9f\x98\x80\"}\n");
    char err[200];
    json_stats st = {0};
    assert_int_equal(json_validate(text, len, &st, err, sizeof err), 0);
    free(text);
}

static void test_json_misuse_detected(void **state)
{
    (void)state;
    int rc;
    size_t len;
    char *text = capture_json(fill_nasty, 1, &rc, &len);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(pg_last_error(), "key outside an object"));
    free(text);

    /* unbalanced */
    char *buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    pg_json j;
    pg_json_init(&j, f, 0);
    pg_json_object_begin(&j);
    pg_json_kv_int(&j, "a", 1);
    assert_int_equal(pg_json_finish(&j), -1);
    fclose(f);
    free(buf);

    /* value without key in an object */
    buf = NULL;
    f = open_memstream(&buf, &len);
    pg_json_init(&j, f, 0);
    pg_json_object_begin(&j);
    pg_json_int(&j, 1);
    pg_json_object_end(&j);
    assert_int_equal(pg_json_finish(&j), -1);
    fclose(f);
    free(buf);
}

/* The JSON validator itself rejects what it must (so the other tests can fail). */
static void test_json_validator_rejects(void **state)
{
    (void)state;
    static const char *const bad[] = {"{\"a\":1,}", "[1 2]", "{\"a\" 1}", "NaN", "[01]", "\"a\nb\"", "[1.]", "{} {}",
                                      "[\"\\x\"]", "tru", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_stats st = {0};
        char err[200];
        assert_int_equal(json_validate(bad[i], strlen(bad[i]), &st, err, sizeof err), -1);
    }
    json_stats st = {0};
    char err[200];
    const char *good = " {\"a\": [1, -0.5e-3, true, null, \"\\u00b5\"]} ";
    assert_int_equal(json_validate(good, strlen(good), &st, err, sizeof err), 0);
}

static void test_xml_validator_rejects(void **state)
{
    (void)state;
    static const char *const bad[] = {"<a><b></a></b>", "<a x=1/>", "<a>&nope;</a>", "<a></a><b/>", "<a x=\"1\" x=\"2\"/>",
                                      "<a>", "text<a/>", "<a>1 < 2</a>"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        xml_stats st;
        char err[200];
        assert_int_equal(xml_validate(bad[i], strlen(bad[i]), &st, err, sizeof err), -1);
    }
    xml_stats st;
    char err[200];
    const char *good = "<?xml version=\"1.0\"?>\n<svg a=\"&amp;&lt;\"><g><t>x &gt; y</t></g><e/></svg>\n";
    assert_int_equal(xml_validate(good, strlen(good), &st, err, sizeof err), 0);
    assert_string_equal(st.root, "svg");
    assert_int_equal(st.elements, 4);
}

static char g_dir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/pg_test_writers_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void check_svg_file(const char *path, long min_elements)
{
    char err[400];
    if (svg_file_validate(path, min_elements, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void test_svg_wellformed(void **state)
{
    (void)state;
    char path[512];
    double x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {10, 20, NAN, 40, 35, 30}, y2[6] = {1, 1e3, 5, 0, -1, 7};
    pg_svg_xy xy = {.title = "tile period <&> \"quoted\" 'apos'",
                    .xlabel = "x & y",
                    .ylabel = "cycles",
                    .nseries = 2,
                    .series = {{"model <line>", x, y, 6, PG_SVG_LINE | PG_SVG_POINTS}, {"measured", x, y2, 6, PG_SVG_POINTS}},
                    .nmarks = 1,
                    .mark_x = {3.5},
                    .mark_label = {"transition & more"}};
    snprintf(path, sizeof path, "%s/xy.svg", g_dir);
    assert_int_equal(pg_svg_xy_save(path, &xy), 0);
    check_svg_file(path, 10);
    xy.log_y = 1;
    assert_int_equal(pg_svg_xy_save(path, &xy), 0);
    check_svg_file(path, 10);

    const char *labels[4] = {"0", "1", "2-3", "<NaN>"};
    double a[4] = {1000, 10, 1, 0}, b[4] = {900, 100, 0, 1};
    pg_svg_bars bars = {.title = "hist", .nbins = 4, .bin_labels = labels, .nsets = 2, .set_labels = {"run", "ref"},
                        .values = {a, b}, .log_y = 1};
    snprintf(path, sizeof path, "%s/bars.svg", g_dir);
    assert_int_equal(pg_svg_bars_save(path, &bars), 0);
    check_svg_file(path, 8);

    const char *lanes[3] = {"SM0 consumer 0", "", "model & co"};
    const char *classes[2] = {"mainloop", "order_wait"};
    int wait[2] = {0, 1};
    pg_svg_span spans[3] = {{0, 100, 0, 0}, {100, 160, 0, 1}, {10, 90, 2, 0}};
    pg_svg_timeline tl = {.title = "timeline", .xlabel = "cycles", .nlanes = 3, .lane_labels = lanes, .nclasses = 2,
                          .class_labels = classes, .class_is_wait = wait, .nspans = 3, .spans = spans};
    snprintf(path, sizeof path, "%s/tl.svg", g_dir);
    assert_int_equal(pg_svg_timeline_save(path, &tl), 0);
    check_svg_file(path, 8);
}

static void test_svg_bad_description_leaves_no_file(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/bad.svg", g_dir);
    pg_svg_span spans[1] = {{0, 100, 5, 0}}; /* lane 5 of 1 */
    const char *lanes[1] = {"a"};
    const char *classes[1] = {"c"};
    pg_svg_timeline tl = {.nlanes = 1, .lane_labels = lanes, .nclasses = 1, .class_labels = classes, .nspans = 1,
                          .spans = spans};
    assert_int_equal(pg_svg_timeline_save(path, &tl), -1);
    assert_non_null(strstr(pg_last_error(), "lane 5"));
    assert_int_equal(access(path, F_OK), -1);
    double x[1] = {NAN}, y[1] = {1};
    pg_svg_xy xy = {.nseries = 1, .series = {{"s", x, y, 1, PG_SVG_LINE}}};
    assert_int_equal(pg_svg_xy_save(path, &xy), -1);
    assert_int_equal(access(path, F_OK), -1);
    /* nothing else left in the folder either (no temporary files) */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep tmp)\"", g_dir);
    assert_int_equal(system(cmd), 0);
}

/* pg_json_save: the file appears whole, or not at all with a message naming it */
static void emit_small(pg_json *j, const void *ctx)
{
    pg_json_object_begin(j);
    pg_json_kv_string(j, "name", ctx);
    pg_json_kv_int(j, "n", 3);
    pg_json_object_end(j);
}

static void emit_unbalanced(pg_json *j, const void *ctx)
{
    (void)ctx;
    pg_json_object_begin(j);
    pg_json_kv_int(j, "n", 3);
}

static void test_json_save(void **state)
{
    (void)state;
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s/saved.json", g_dir);
    assert_int_equal(pg_json_save(path, 1, emit_small, "abc"), 0);
    size_t len;
    char *text = read_whole_file(path, &len);
    assert_non_null(text);
    json_stats st = {.count_key = "name", .count_value = "abc"};
    char err[200];
    assert_int_equal(json_validate(text, len, &st, err, sizeof err), 0);
    assert_int_equal(st.key_value_hits, 1);
    free(text);
    unlink(path);
    assert_int_equal(pg_json_save(path, 0, emit_unbalanced, NULL), -1);
    assert_non_null(strstr(pg_last_error(), path));
    assert_int_equal(access(path, F_OK), -1);
    snprintf(path, sizeof path, "%s/no/such/dir/x.json", g_dir);
    assert_int_equal(pg_json_save(path, 1, emit_small, "a"), -1);
    assert_non_null(strstr(pg_last_error(), path));
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep tmp)\"", g_dir);
    assert_int_equal(system(cmd), 0);
}

/* pg_alloc / pg_bytes (common/pg_alloc.c): overflow and negative counts are
 * messages naming the thing, a zero count still gives a usable pointer */
static void test_checked_alloc(void **state)
{
    (void)state;
    size_t bytes = 0;
    assert_int_equal(pg_bytes("x", 3, 8, &bytes), 0);
    assert_int_equal(bytes, 24);
    assert_int_equal(pg_bytes("/output/D", INT64_MAX, 4, &bytes), -1);
    assert_non_null(strstr(pg_last_error(), "/output/D: size"));
    assert_null(pg_alloc("the rows", -1, 8));
    assert_non_null(strstr(pg_last_error(), "the rows"));
    void *p = pg_alloc("nothing", 0, 8);
    assert_non_null(p);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_wellformed),
        cmocka_unit_test(test_json_invalid_utf8_replaced),
        cmocka_unit_test(test_json_misuse_detected),
        cmocka_unit_test(test_json_validator_rejects),
        cmocka_unit_test(test_xml_validator_rejects),
        cmocka_unit_test(test_svg_wellformed),
        cmocka_unit_test(test_svg_bad_description_leaves_no_file),
        cmocka_unit_test(test_json_save),
        cmocka_unit_test(test_checked_alloc),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
