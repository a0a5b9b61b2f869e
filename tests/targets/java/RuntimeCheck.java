// The Java runtime on its own, through the shipped taxonomy's package (compiled
// as cases.shipped with every case): what the vectors do not reach. The oracles
// are RFC 8259 (what is JSON), ECMAScript's Number::toString (how every runtime
// writes a number in a message) and docs/java.md (what create, toError and the
// copies do). It prints "FAIL <what>" per failure and "checked N", and exits 1
// on any failure. tests/targets/java/test_java_runtime.py runs it.
import cases.shipped.Errors;
import cases.shipped.HarmovelaError;
import cases.shipped.TaskTimeoutDetails;
import cases.shipped.TaskTimeoutError;
import cases.shipped.runtime.InvalidPayloadException;
import cases.shipped.runtime.Values;
import cases.shipped.runtime.WrappedValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

public final class RuntimeCheck {
    private static int checked;
    private static final List<String> FAILED = new ArrayList<>();

    private RuntimeCheck() {}

    private static void check(boolean ok, String what) {
        checked++;
        if (!ok) {
            FAILED.add("FAIL " + what);
        }
    }

    private static String refusal(Supplier<?> call) {
        try {
            call.get();
            return null;
        } catch (InvalidPayloadException problem) {
            return problem.field();
        }
    }

    private static String payload(String json) {
        return refusal(() -> Errors.fromPayload(json));
    }

    public static void main(String[] args) {
        String ok = "{\"code\":\"protocol_error\",\"message\":\"m\",\"retryable\":false,\"details\":";
        // RFC 8259: none of these is JSON.
        for (String bad : new String[] {"", " ", "NaN", "Infinity", "01", "1.", ".5", "+1",
                "-", "1e", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "[1] [2]", "tru", "nul", "'a'",
                "\"\u0001\"", "\"\\x\"", "\"\\u12\"", "{\"a\":1", "[", "{1:2}", "\"abc"}) {
            check("payload".equals(payload(bad)), "not JSON, yet read: " + bad);
            check("payload".equals(payload(ok + bad + "}")), "not JSON in details: " + bad);
        }
        // RFC 8259: all of this is, whitespace and escapes included.
        String good = " \t\r\n" + ok + "{\"a\" : [ 1 , -0.5e+3 , 0E0, 1E-2, true , false, null ,"
                + " \"\\ud800\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\" ], \"\": {}} } \n";
        check(payload(good) == null, "JSON refused: " + good);
        HarmovelaError read = Errors.fromPayload(good);
        Object items = read.details().get("a");
        check(items instanceof List<?> list && list.size() == 8
                && "\ud800\"\\/\b\f\n\r\t\u00e9".equals(list.get(7)), "escapes: " + items);
        // ECMAScript Number::toString, as a message shows a number.
        Object[][] numbers = {{0.0, "0"}, {-0.0, "0"}, {1.0, "1"}, {-1.5, "-1.5"}, {0.1, "0.1"},
                {1e21, "1e+21"}, {1e20, "100000000000000000000"}, {1e-7, "1e-7"},
                {0.000001, "0.000001"}, {1.5e300, "1.5e+300"}, {123456789012.0, "123456789012"},
                {-2.5e-8, "-2.5e-8"}, {Double.NaN, "NaN"}, {Double.POSITIVE_INFINITY, "Infinity"}};
        for (Object[] pair : numbers) {
            String got = Values.jsNumber((Double) pair[0]);
            check(got.equals(pair[1]), "jsNumber(" + pair[0] + "): " + got + ", want " + pair[1]);
        }
        // create: the details as JSON carries them, or refused about "details".
        Map<String, Object> cycle = new HashMap<>();
        cycle.put("self", cycle);
        Map<String, Object> deep = new HashMap<>();
        Map<String, Object> at = deep;
        for (int i = 0; i < 64; i++) {
            Map<String, Object> inner = new HashMap<>();
            at.put("x", inner);
            at = inner;
        }
        List<Map<String, Object>> refused = List.of(cycle, deep, Map.of("n", Double.NaN),
                Map.of("n", Float.NEGATIVE_INFINITY), Map.of("o", new Object()),
                Map.of("m", Map.of(1, 2)), Map.of("t", java.time.Instant.EPOCH));
        for (Map<String, Object> details : refused) {
            String field = refusal(() -> Errors.create("protocol_error", details));
            check("details".equals(field), "create accepted " + details.keySet() + ": " + field);
        }
        Map<String, Object> fine = new LinkedHashMap<>();
        fine.put("n", List.of(1, 2L, 3.5f, new java.math.BigInteger("123456789012345678901234567890")));
        fine.put("s", Map.of("k", true));
        check(refusal(() -> Errors.create("protocol_error", fine)) == null, "create refused JSON");
        check("code".equals(refusal(() -> Errors.create("no_such_code", Map.of()))), "unknown code");
        check("details.task_id".equals(refusal(() -> Errors.create("task_timeout",
                Map.of("timeout_ms", 1)))), "a missing field");
        check("details.timeout_ms".equals(refusal(() -> Errors.create("task_timeout",
                Map.of("task_id", "t", "timeout_ms", -1)))), "a field under its minimum");
        HarmovelaError made = Errors.create("task_timeout", Map.of("task_id", "t", "timeout_ms", 5));
        check(made instanceof TaskTimeoutError, "create gives the code's class");
        check(made.getMessage().equals("task t exceeded the 5ms deadline"), made.getMessage());
        // The copies, toError, the typed details.
        TaskTimeoutError err = new TaskTimeoutError(new TaskTimeoutDetails("t", 5L, 7L));
        check(err.withHttpStatus(418).httpStatus().getAsInt() == 418, "withHttpStatus");
        check(err.httpStatus().isEmpty(), "withHttpStatus changed the original");
        boolean thrown = false;
        try {
            err.withHttpStatus(99);
        } catch (IllegalArgumentException e) {
            thrown = true;
        }
        check(thrown, "withHttpStatus(99) accepted");
        check(err.withMessage("x").getMessage().equals("x") && err.withMessage("x") instanceof TaskTimeoutError,
                "withMessage");
        RuntimeException cause = new IllegalStateException("c");
        check(err.withCause(cause).getCause() == cause, "withCause");
        check(Errors.toError(err) == err, "toError of an error of the taxonomy");
        HarmovelaError wrapped = Errors.toError("text");
        check(wrapped.getCause() instanceof WrappedValue value && "text".equals(value.value()),
                "toError keeps a value");
        check(err.taskTimeoutDetails().equals(new TaskTimeoutDetails("t", 5L, 7L)), "typed details");
        thrown = false;
        try {
            new TaskTimeoutDetails(null, 5L, null);
        } catch (NullPointerException e) {
            thrown = "task_id".equals(e.getMessage());
        }
        check(thrown, "a required component may not be null");
        // Events: a type not in the table, or nothing where it says, is none.
        check(Errors.errorFromEvent("{\"type\":\"other\"}").isEmpty(), "an unlisted event");
        check(Errors.errorFromEvent("{\"type\":\"task.failed\",\"payload\":{}}").isEmpty(),
                "an event without its error");
        check("event".equals(refusal(() -> Errors.errorFromEvent("[]"))), "an event not an object");

        // Issue 30 §3, fallback: null (oauth_unknown): an unknown code keeps its
        // identity, an error of the root class, built by create when well-formed.
        cases.oauth_unknown.OAuthError kept = cases.oauth_unknown.Errors.fromPayload(
                "{\"error\":\"bad_verification_code\"}");
        check(kept.getClass() == cases.oauth_unknown.OAuthError.class, "kept: the root class");
        check(kept.code().equals("bad_verification_code") && kept.domain() == null,
                "kept: its own code, no domain");
        check(cases.oauth_unknown.Errors.lookup("brand_new").equals("brand_new"), "lookup keeps");
        check(cases.oauth_unknown.Errors.create("brand_new", Map.of()).code().equals("brand_new"),
                "create builds a well-formed unknown code");
        String field = null;
        try {
            cases.oauth_unknown.Errors.create("Not Well Formed!", Map.of());
        } catch (cases.oauth_unknown.runtime.InvalidPayloadException problem) {
            field = problem.field();
        }
        check("code".equals(field), "create refuses a code that is not well-formed");

        FAILED.forEach(System.out::println);
        System.out.println("checked " + checked + ", " + FAILED.size() + " failed");
        System.exit(FAILED.isEmpty() ? 0 : 1);
    }
}
