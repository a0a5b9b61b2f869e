// Runs every conformance vector of every case given against its generated Java
// package, in one JVM: the same vectors the Python, TypeScript and Go suites run.
// tests/targets/java/test_java.py compiles this file with every case's package
// in one javac run. Arguments: pairs of (Java package, vectors.json). Each
// package is reached by reflection (its Errors class and its base class's
// methods), so one runner serves every taxonomy. A vector that names a class is
// checked by the class's simple name and by the code its error reports. It
// prints one line per failure ("FAIL <package> <id>: <what>"), then "ran N of M";
// it exits 1 unless every vector of every case ran and passed, and on a kind it
// has no runner for.
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

public final class Conformance {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
    private static final Set<String> KINDS =
            Set.of("from_payload", "error_from_event", "lookup", "to_error", "construct", "retry_after");

    private final Class<?> errors;
    private final String name;
    private final List<String> failures = new ArrayList<>();
    private String id = "";

    private Conformance(String pkg) throws ClassNotFoundException {
        errors = Class.forName(pkg + ".Errors");
        name = pkg;
    }

    /** A vector's failure, said once per check. */
    private static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message);
        }
    }

    private void fail(String what) {
        failures.add("FAIL " + name + " " + id + ": " + what);
    }

    private Object call(Object target, String method, Class<?>[] types, Object... args) throws Throwable {
        Class<?> owner = target == null ? errors : target.getClass();
        Method m = owner.getMethod(method, types);
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private Object get(Object error, String method) throws Throwable {
        return call(error, method, new Class<?>[0]);
    }

    private static String field(Throwable problem) throws Throwable {
        if (!problem.getClass().getSimpleName().equals("InvalidPayloadException")) {
            throw problem;
        }
        return (String) problem.getClass().getMethod("field").invoke(problem);
    }

    /** A JSON node as plain values, numbers as doubles, so 3 and 3.0 are one. */
    private static Object plain(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        } else if (node.isObject()) {
            Map<String, Object> out = new HashMap<>();
            Iterator<Map.Entry<String, JsonNode>> members = node.fields();
            while (members.hasNext()) {
                Map.Entry<String, JsonNode> member = members.next();
                out.put(member.getKey(), plain(member.getValue()));
            }
            return out;
        } else if (node.isArray()) {
            List<Object> out = new ArrayList<>();
            for (JsonNode item : node) {
                out.add(plain(item));
            }
            return out;
        } else if (node.isNumber()) {
            return node.doubleValue();
        } else if (node.isBoolean()) {
            return node.booleanValue();
        }
        return node.textValue();
    }

    /** A JSON node as the values a caller gives (integers as Long, others as Double). */
    private static Object given(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        } else if (node.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            node.fields().forEachRemaining(m -> out.put(m.getKey(), given(m.getValue())));
            return out;
        } else if (node.isArray()) {
            List<Object> out = new ArrayList<>();
            node.forEach(item -> out.add(given(item)));
            return out;
        } else if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
        } else if (node.isNumber()) {
            return node.doubleValue();
        } else if (node.isBoolean()) {
            return node.booleanValue();
        }
        return node.textValue();
    }

    private static Object plainText(String json) throws Exception {
        return plain(MAPPER.readTree(json));
    }

    private static Object plainValue(Object value) throws Exception {
        return plainText(MAPPER.writeValueAsString(value));
    }

    /** A code of the vectors as Java holds it: a string, an integer as its text. */
    private static String codeText(JsonNode node) {
        if (node == null || node.isNull()) {
            return "<no code>";
        }
        return node.isNumber() ? node.bigIntegerValue().toString() : node.textValue();
    }

    private void checkClass(Object error, JsonNode expect) throws Throwable {
        if (expect.has("class")) {
            String got = error.getClass().getSimpleName();
            if (!got.equals(expect.get("class").textValue())) {
                fail("class: got " + got + ", want " + expect.get("class"));
            }
        }
        String code = (String) get(error, "code");
        if (!code.equals(codeText(expect.get("code")))) {
            fail("code: got " + code + ", want " + expect.get("code"));
        }
    }

    private void checkMapped(Object error, JsonNode expect) throws Throwable {
        OptionalInt status = (OptionalInt) get(error, "httpStatus");
        JsonNode want = expect.get("http_status");
        OptionalInt wanted = want == null || want.isNull() ? OptionalInt.empty() : OptionalInt.of(want.intValue());
        if (!status.equals(wanted)) {
            fail("httpStatus: got " + status + ", want " + wanted);
        }
        Object grpc = get(error, "grpcStatus");
        Optional<String> grpcWanted = Optional.ofNullable(text(expect.get("grpc_status")));
        if (!grpc.equals(grpcWanted)) {
            fail("grpcStatus: got " + grpc + ", want " + grpcWanted);
        }
        boolean throttling = (Boolean) get(error, "isThrottling");
        if (throttling != (expect.has("throttling") && expect.get("throttling").booleanValue())) {
            fail("isThrottling: got " + throttling);
        }
        Object url = get(error, "docUrl");
        Optional<String> urlWanted = Optional.ofNullable(text(expect.get("doc_url")));
        if (!url.equals(urlWanted)) {
            fail("docUrl: got " + url + ", want " + urlWanted);
        }
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.textValue();
    }

    private void checkAccepted(Object error, JsonNode expect) throws Throwable {
        checkMapped(error, expect);
        checkClass(error, expect);
        if (!Objects.equals(get(error, "domain"), text(expect.get("domain")))) {
            fail("domain: got " + get(error, "domain") + ", want " + expect.get("domain"));
        }
        if (!get(error, "isRetryable").equals(expect.get("retryable").booleanValue())) {
            fail("retryable: got " + get(error, "isRetryable"));
        }
        if (!get(error, "wireCode").equals(codeText(expect.get("wire_code")))) {
            fail("wire code: got " + get(error, "wireCode") + ", want " + expect.get("wire_code"));
        }
        String payload = (String) get(error, "toPayload");
        if (!Objects.equals(plainText(payload), plain(expect.get("payload")))) {
            fail("payload: got " + payload + ", want " + expect.get("payload"));
        }
        if (expect.has("message")) {
            String message = ((Throwable) error).getMessage();
            if (!message.equals(expect.get("message").textValue()) || !(Boolean) get(error, "isMessageAbsent")) {
                fail("message: got " + message + ", want " + expect.get("message") + ", absent");
            }
        }
        Object again = call(null, "fromPayload", new Class<?>[] {String.class}, payload);
        if (!get(again, "code").equals(get(error, "code")) || !get(again, "wireCode").equals(get(error, "wireCode"))) {
            fail("round trip: got " + get(again, "toPayload"));
        }
        if (call(null, "toError", new Class<?>[] {Object.class}, error) != error) {
            fail("toError does not give the error itself back");
        }
    }

    private void payload(String method, String input, JsonNode expect) throws Throwable {
        Object error;
        try {
            error = call(null, method, new Class<?>[] {String.class}, input);
        } catch (Throwable problem) {
            if (expect.get("ok").booleanValue()) {
                fail("refused: " + problem);
                return;
            }
            String got = field(problem);
            if (!got.equals(expect.get("field").textValue())) {
                fail("field: got " + got + ", want " + expect.get("field") + " (" + problem.getMessage() + ")");
            }
            if (expect.has("message") && !problem.getMessage().equals(expect.get("message").textValue())) {
                fail("message: got " + problem.getMessage() + ", want " + expect.get("message"));
            }
            return;
        }
        if (error instanceof Optional<?> event) {
            error = event.orElse(null);
        }
        if (!expect.get("ok").booleanValue()) {
            fail("want an InvalidPayloadException (field " + expect.get("field") + "), got " + error);
        } else if (expect.has("none") && expect.get("none").booleanValue()) {
            if (error != null) {
                fail("want none, got " + error);
            }
        } else if (error == null) {
            fail("want an error, got none");
        } else {
            checkAccepted(error, expect);
        }
    }

    private void run(JsonNode vector) throws Throwable {
        String kind = vector.get("kind").textValue();
        JsonNode expect = vector.get("expect");
        String input = vector.has("input_json") ? vector.get("input_json").textValue()
                : MAPPER.writeValueAsString(vector.get("input"));
        switch (kind) {
            case "from_payload" -> payload("fromPayload", input, expect);
            case "error_from_event" -> payload("errorFromEvent", input, expect);
            case "lookup" -> {
                String code = codeText(MAPPER.readTree(input));
                Object got = call(null, "lookup", new Class<?>[] {String.class}, code);
                if (!got.equals(codeText(expect.get("code")))) {
                    fail("lookup: got " + got + ", want " + expect.get("code"));
                }
                Class<?> cls = (Class<?>) call(null, "lookupClass", new Class<?>[] {String.class}, code);
                if (!cls.getSimpleName().equals(expect.get("class").textValue())) {
                    fail("lookupClass: got " + cls.getSimpleName() + ", want " + expect.get("class"));
                }
                Object retryable = call(null, "isRetryable", new Class<?>[] {String.class}, code);
                if (!retryable.equals(expect.get("retryable").booleanValue())) {
                    fail("isRetryable: got " + retryable);
                }
            }
            case "to_error" -> {
                Object value = given(MAPPER.readTree(input));
                Object error = call(null, "toError", new Class<?>[] {Object.class}, value);
                checkMapped(error, expect);
                checkClass(error, expect);
                if (!Objects.equals(get(error, "domain"), text(expect.get("domain")))
                        || !get(error, "isRetryable").equals(expect.get("retryable").booleanValue())) {
                    fail("got " + get(error, "domain") + " " + get(error, "isRetryable"));
                }
                Throwable cause = ((Throwable) error).getCause();
                Object kept = cause == null ? null : cause.getClass().getMethod("value").invoke(cause);
                if (!Objects.equals(plainValue(kept), plainText(input))) {
                    fail("the value is not kept: " + cause);
                }
            }
            case "construct" -> {
                JsonNode node = MAPPER.readTree(input);
                Object details = given(node.get("details"));
                Object error = call(null, "create", new Class<?>[] {String.class, Map.class},
                        codeText(node.get("code")), details);
                checkMapped(error, expect);
                checkClass(error, expect);
                String message = ((Throwable) error).getMessage();
                if (!message.equals(expect.get("message").textValue())) {
                    fail("message: got " + message + ", want " + expect.get("message"));
                }
                if (!Objects.equals(plainValue(get(error, "details")), plain(expect.get("details")))) {
                    fail("details: got " + get(error, "details") + ", want " + expect.get("details"));
                }
            }
            case "retry_after" -> {
                Object error = call(null, "fromPayload", new Class<?>[] {String.class}, input);
                checkClass(error, expect);
                JsonNode seconds = expect.get("retry_after");
                Optional<Duration> want = seconds == null || seconds.isNull() ? Optional.empty()
                        : Optional.of(Duration.ofNanos((long) (seconds.doubleValue() * 1e9)));
                if (!get(error, "retryAfter").equals(want)) {
                    fail("retryAfter: got " + get(error, "retryAfter") + ", want " + want);
                }
            }
            default -> fail("no runner for kind " + kind);
        }
    }

    public static void main(String[] args) throws Exception {
        int ran = 0;
        int total = 0;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            Conformance runner = new Conformance(args[i]);
            JsonNode doc = MAPPER.readTree(Files.readString(Path.of(args[i + 1])));
            doc.get("kinds").fieldNames().forEachRemaining(kind -> {
                if (!KINDS.contains(kind)) {
                    runner.failures.add("FAIL " + runner.name + ": no runner for kind " + kind);
                }
            });
            if (doc.get("vectors").size() == 0) {
                runner.failures.add("FAIL " + runner.name + ": no vectors");
            }
            for (JsonNode vector : doc.get("vectors")) {
                total++;
                runner.id = vector.get("id").textValue();
                if (vector.has("input_json") && vector.has("input")) {
                    runner.fail("both input and input_json");
                }
                try {
                    runner.run(vector);
                } catch (Throwable e) {
                    runner.fail("threw " + e);
                }
                ran++;
            }
            failures.addAll(runner.failures);
        }
        failures.forEach(System.out::println);
        System.out.println("ran " + ran + " of " + total + " vectors, " + failures.size() + " failures");
        System.exit(failures.isEmpty() && ran == total && total > 0 ? 0 : 1);
    }
}
