package taxogen.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The wire: payloads and events read into errors (every check and limit the
 * other taxogen runtimes make, with the same field named), errors built from
 * details, values wrapped. Each function takes the generated package's
 * {@link Taxonomy} and gives a {@link State}, which the package turns into its
 * error class.
 */
public final class Codec {
    private Codec() {}

    private static InvalidPayloadException invalid(String field, String message) {
        return new InvalidPayloadException(field, message);
    }

    /** A JSON payload decoded and validated. */
    public static State fromPayload(Taxonomy t, String json) {
        Object value;
        try {
            value = Json.parse(json);
        } catch (IOException e) {
            throw invalid("payload", "payload: not JSON (" + e.getMessage() + ")");
        }
        return fromValue(t, value);
    }

    /** The error an event carries where the events table says, or null. */
    public static State fromEvent(Taxonomy t, String json) {
        Object value;
        try {
            value = Json.parse(json);
        } catch (IOException e) {
            throw invalid("event", "event: not JSON (" + e.getMessage() + ")");
        }
        if (!(value instanceof Map<?, ?> event)) {
            throw invalid("event", "event: expected an object, got " + Values.kind(value));
        }
        if (!(event.get("type") instanceof String type) || !t.events.containsKey(type)) {
            return null;
        }
        Object found = event;
        for (String part : t.events.get(type).split("\\.", -1)) {
            if (!(found instanceof Map<?, ?> object)) {
                return null;
            }
            found = object.get(part);
        }
        return found == null ? null : fromValue(t, found);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }

    static State fromValue(Taxonomy t, Object value) {
        if (t.payload != null) {
            return fromMapped(t, t.payload, value);
        }
        if (!(value instanceof Map<?, ?>)) {
            throw invalid("payload", "payload: expected an object, got " + Values.kind(value));
        }
        Map<String, Object> payload = object(value);
        String code = readCode(t, payload.get("code"), "code");
        Taxonomy.Spec spec = t.spec(code);
        if (spec == null && t.pattern != null) {
            wellFormed(t, code, "code");
        }
        if (!(payload.get("message") instanceof String message)) {
            throw invalid("message", "message: expected a string, got " + Values.kind(payload.get("message")));
        }
        if (!(payload.get("retryable") instanceof Boolean retryable)) {
            throw invalid("retryable", "retryable: expected a boolean, got " + Values.kind(payload.get("retryable")));
        }
        Map<String, Object> details = null;
        Object raw = payload.get("details");
        if (raw != null) {
            if (!(raw instanceof Map<?, ?>)) {
                throw invalid("details", "details: expected an object, got " + Values.kind(raw));
            }
            details = object(raw);
            String problem = Values.detailsProblem(details, "details", false);
            if (problem != null) {
                throw invalid("details", problem);
            }
        }
        Taxonomy.Match matched = null;
        if (spec == null) {
            matched = t.match(code);
            if (t.kept(matched)) {
                spec = t.kept(code, matched);
            } else {
                spec = matched != null ? t.spec(matched.code) : t.fallback;
            }
        } else {
            fieldsProblem(spec.fields, details);
            details = withConstants(spec.fields, details);
        }
        return new State(t, spec, code, message, retryable, details, null, null, false, null,
                matched, 0);
    }

    private static void wellFormed(Taxonomy t, String code, String name) {
        int n = code.codePointCount(0, code.length());
        if (n > Taxonomy.MAX_CODE_LENGTH) {
            throw invalid(name, name + ": longer than " + Taxonomy.MAX_CODE_LENGTH + " characters (" + n + ")");
        }
        if (!t.pattern.matcher(code).matches()) {
            throw invalid(name, name + ": \"" + code + "\" is not a well-formed error code");
        }
    }

    /** A payload's code as text: a string, or an integer (5.0 too) as its decimal text. */
    static String readCode(Taxonomy t, Object raw, String name) {
        if (t.pattern != null) {
            if (!(raw instanceof String code)) {
                throw invalid(name, name + ": expected a string, got " + Values.kind(raw));
            }
            return code;
        }
        if (!(raw instanceof Number number)) {
            throw invalid(name, name + ": expected an integer, got " + Values.kind(raw));
        }
        double value = number.doubleValue();
        if (Double.isInfinite(value) || Double.isNaN(value) || value != Math.rint(value)) {
            throw invalid(name, name + ": expected an integer, got a number");
        }
        if (Math.abs(value) > Taxonomy.MAX_WIRE_INTEGER) {
            throw invalid(name, name + ": " + number + " is out of range (at most "
                    + Taxonomy.MAX_WIRE_INTEGER + " either side of 0)");
        }
        return Long.toString((long) value);
    }

    /** Every byte but RFC 3986's unreserved characters as %XX. */
    static String percentEncode(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || "-._~".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append(String.format("%%%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    private static final Pattern INTEGER_TEXT = Pattern.compile("-?(0|[1-9][0-9]{0,15})");

    /** The code a problem's type URI names, or null. */
    static String uriCode(Taxonomy t, String[] uri, String text) {
        String prefix = uri[0];
        String suffix = uri[1];
        if (text.length() < prefix.length() + suffix.length()
                || !text.startsWith(prefix) || !text.endsWith(suffix)) {
            return null;
        }
        String middle = text.substring(prefix.length(), text.length() - suffix.length());
        byte[] raw = middle.getBytes(StandardCharsets.UTF_8);
        if (raw.length > 12 * Taxonomy.MAX_CODE_LENGTH) {
            return null;
        }
        java.io.ByteArrayOutputStream decoded = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] != '%') {
                decoded.write(raw[i]);
                continue;
            }
            if (i + 2 >= raw.length) {
                return null;
            }
            int hi = Character.digit(raw[i + 1], 16);
            int lo = Character.digit(raw[i + 2], 16);
            if (hi < 0 || lo < 0) {
                return null;
            }
            decoded.write(hi * 16 + lo);
            i += 2;
        }
        byte[] bytes = decoded.toByteArray();
        String code;
        try {
            code = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
        if (code.isEmpty() || !percentEncode(code).equals(middle)) {
            return null;
        }
        if (t.pattern == null) {
            if (!INTEGER_TEXT.matcher(code).matches()) {
                return null;
            }
            long n = Long.parseLong(code);
            return Math.abs(n) > Taxonomy.MAX_WIRE_INTEGER ? null : code;
        }
        if (code.codePointCount(0, code.length()) > Taxonomy.MAX_CODE_LENGTH
                || !t.pattern.matcher(code).matches()) {
            return null;
        }
        return code;
    }

    private static boolean same(Object found, Object constant) {
        if (constant instanceof String || constant instanceof Boolean) {
            return constant.equals(found);
        }
        Double want = Values.number(constant);
        Double got = Values.number(found);
        return got != null && got.equals(want);
    }

    static State fromMapped(Taxonomy t, Taxonomy.PayloadMap p, Object value) {
        if (!(value instanceof Map<?, ?>)) {
            throw invalid("payload", "payload: expected an object, got " + Values.kind(value));
        }
        Map<String, Object> payload = object(value);
        for (Map.Entry<String, Object> c : p.constants.entrySet()) {
            Object found = payload.get(c.getKey());
            if (found != null && !same(found, c.getValue())) {
                throw invalid(c.getKey(), c.getKey() + ": expected " + p.constantTexts.get(c.getKey())
                        + ", the constant every payload carries, or none");
            }
        }
        Map<String, Object> body = payload;
        String at = "";
        if (!p.envelope.isEmpty()) {
            Object inner = payload.get(p.envelope);
            if (!(inner instanceof Map<?, ?>)) {
                throw invalid(p.envelope, p.envelope + ": expected an object, got " + Values.kind(inner));
            }
            body = object(inner);
            at = p.envelope + ".";
        }
        String codeName = at + p.code;
        Object raw = body.get(p.code);
        String code = "";
        boolean hasCode = true;
        String kept = null;
        if (p.uri != null) {
            if (raw == null) {
                hasCode = false;
            } else if (!(raw instanceof String text)) {
                throw invalid(codeName, codeName + ": expected a string, got " + Values.kind(raw));
            } else {
                String found = uriCode(t, p.uri, text);
                if (found != null) {
                    code = found;
                } else {
                    hasCode = false;
                    kept = text;
                }
            }
        } else {
            code = readCode(t, raw, codeName);
            if (t.spec(code) == null && t.pattern != null) {
                wellFormed(t, code, codeName);
            }
        }
        String messageName = at + p.message;
        Object rawMessage = body.get(p.message);
        String message = rawMessage instanceof String s ? s : null;
        if (message == null && (rawMessage != null || p.messageRequired)) {
            throw invalid(messageName, messageName + ": expected a string, got " + Values.kind(rawMessage));
        }
        boolean retryable = false;
        boolean given = false;
        if (!p.retryable.isEmpty()) {
            String name = at + p.retryable;
            if (!(body.get(p.retryable) instanceof Boolean b)) {
                throw invalid(name, name + ": expected a boolean, got " + Values.kind(body.get(p.retryable)));
            }
            retryable = b;
            given = true;
        }
        int status = 0;
        if (!p.status.isEmpty() && body.get(p.status) != null) {
            String name = at + p.status;
            String wanted = name + ": expected an HTTP status (an integer from 100 to 599), got ";
            Double n = Values.number(body.get(p.status));
            if (n == null || n.isInfinite() || n != Math.rint(n)) {
                throw invalid(name, wanted + Values.kind(body.get(p.status)));
            }
            if (n < 100 || n > 599) {
                throw invalid(name, wanted + Values.jsNumber(n));
            }
            status = n.intValue();
        }
        Map<String, Object> details = null;
        Object data = null;
        if ("*".equals(p.details)) {
            String name = p.envelope.isEmpty() ? "payload" : p.envelope;
            details = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : body.entrySet()) {
                String key = e.getKey();
                if (!key.equals(p.code) && !key.equals(p.message)
                        && (p.retryable.isEmpty() || !key.equals(p.retryable))
                        && (p.status.isEmpty() || !key.equals(p.status)) && !p.fixed(key)) {
                    details.put(key, e.getValue());
                }
            }
            String problem = Values.detailsProblem(details, name, false);
            if (problem != null) {
                throw invalid(name, problem);
            }
            if (kept != null) {
                details.put(p.code, kept);
            }
        } else if (!p.details.isEmpty()) {
            String name = at + p.details;
            Object member = body.get(p.details);
            if (member != null) {
                boolean isObject = member instanceof Map<?, ?>;
                boolean isArray = member instanceof List<?>;
                if (("object".equals(p.detailsType) && !isObject) || ("array".equals(p.detailsType) && !isArray)) {
                    throw invalid(name, name + ": expected " + ("array".equals(p.detailsType) ? "an array" : "an object")
                            + ", got " + Values.kind(member));
                }
                String problem = Values.detailsProblem(member, name, false);
                if (problem != null) {
                    throw invalid(name, problem);
                }
                if (isObject && "object".equals(p.detailsType)) {
                    details = object(member);
                } else {
                    data = member;
                }
            }
            if (data == null && "array".equals(p.detailsType)) {
                data = new ArrayList<Object>();
            }
        }
        Taxonomy.Spec spec = hasCode ? t.spec(code) : null;
        boolean known = spec != null;
        Taxonomy.Match matched = null;
        boolean keeps = false;
        if (!known) {
            spec = t.fallback;
            if (hasCode) {
                matched = t.match(code);
                if (matched != null && !matched.keeps) {
                    spec = t.spec(matched.code);
                }
            }
            // Issue 30 §3: with no fallback, an unknown code keeps its identity.
            keeps = hasCode && t.kept(matched);
            if (keeps) {
                spec = t.kept(code, matched);
            } else if (spec == null) {
                spec = t.kept("", null);
            }
        } else {
            fieldsProblem(spec.fields, details);
            details = withConstants(spec.fields, details);
        }
        if (!hasCode) {
            code = spec.code;
        }
        boolean absent = rawMessage == null;
        if (absent && p.exactMessage) {
            message = matched != null ? matched.meaning
                    : hasCode && known ? absentMessage(spec, details) : spec.meaning;
        } else if (absent) {
            message = matched != null ? matched.meaning : spec.meaning;
            if (details != null && details.get("title") instanceof String title) {
                message = title;
            }
        }
        if (!given) {
            retryable = keeps ? t.retryableUnknown(status) : spec.retryable;
        }
        Map<String, Object> outside = null;
        if (p.outside) {
            // Not kept: the envelope and the constants; without an envelope,
            // every member the mapping names (Kubernetes' metadata is kept).
            outside = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : payload.entrySet()) {
                String key = e.getKey();
                boolean own = p.envelope.isEmpty() && p.names(key);
                if (!key.equals(p.envelope) && !own && !p.constants.containsKey(key)) {
                    outside.put(e.getKey(), e.getValue());
                }
            }
            String problem = Values.detailsProblem(outside, "payload", false);
            if (problem != null) {
                throw invalid("payload", problem);
            }
        }
        return new State(t, spec, code, message, retryable, details, data, null,
                absent && p.exactMessage, outside, matched, status);
    }

    private static String absentMessage(Taxonomy.Spec spec, Map<String, Object> details) {
        if (spec.template == null) {
            return spec.meaning;
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Taxonomy.Piece piece : spec.template) {
            if (piece.field() == null) {
                continue;
            }
            Object value = details == null ? null : details.get(piece.field());
            if (value == null) {
                for (Taxonomy.Field field : spec.fields) {
                    if (field.name.equals(piece.field()) && field.defaultJson != null) {
                        value = parseDefault(field.defaultJson);
                    }
                }
            }
            if (value == null) {
                return spec.meaning;
            }
            values.put(piece.field(), value);
        }
        return render(spec, values);
    }

    private static Object parseDefault(String json) {
        try {
            return Json.parse(json);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String render(Taxonomy.Spec spec, Map<String, Object> details) {
        if (spec.template == null) {
            return spec.meaning;
        }
        StringBuilder out = new StringBuilder();
        for (Taxonomy.Piece piece : spec.template) {
            out.append(piece.text());
            if (piece.field() != null) {
                out.append(Values.text(details.get(piece.field())));
            }
        }
        return out.toString();
    }

    /**
     * An error of {@code code} with these details (not checked: the typed
     * constructors' types say what they hold), the omitted optional fields'
     * defaults filled in, its message rendered.
     */
    public static State build(Taxonomy t, String code, Map<String, Object> details) {
        Taxonomy.Spec spec = t.spec(code);
        if (spec == null) {
            spec = t.keeps() ? t.kept(code, null) : t.fallback;
        }
        Map<String, Object> filled = new LinkedHashMap<>();
        if (details != null) {
            filled.putAll(details);
        }
        for (Taxonomy.Field field : spec.fields) {
            // A constant field holds its constant whatever a typed constructor
            // was given (issue 30 §7): its value is fixed for the code.
            if ((!filled.containsKey(field.name) && field.defaultJson != null)
                    || field.constant != null) {
                filled.put(field.name, parseDefault(field.defaultJson));
            }
        }
        return new State(t, spec, spec.code, render(spec, filled), spec.retryable, filled,
                null, null, false, null, null, 0);
    }

    /** An error of {@code code} with these details, checked as a received error's are. */
    public static State create(Taxonomy t, String code, Map<String, ?> details) {
        Taxonomy.Spec spec = t.spec(code);
        if (spec == null && t.keeps()) {
            // No fallback (issue 30 §3): a well-formed unknown code is a root error.
            boolean wellFormed = code != null && (t.pattern == null
                    ? INTEGER_TEXT.matcher(code).matches()
                            && Math.abs(Long.parseLong(code)) <= Taxonomy.MAX_WIRE_INTEGER
                    : code.codePointCount(0, code.length()) <= Taxonomy.MAX_CODE_LENGTH
                            && t.pattern.matcher(code).matches());
            if (!wellFormed) {
                throw invalid("code", "code: \"" + code + "\" is not a well-formed error code");
            }
            spec = t.kept(code, null);
        }
        if (spec == null) {
            throw invalid("code", "code: \"" + code + "\" is not a code of the taxonomy");
        }
        String problem = Values.detailsProblem(details, "details", true);
        if (problem != null) {
            throw invalid("details", problem);
        }
        Map<String, Object> copy = details == null ? null : new LinkedHashMap<>(details);
        fieldsProblem(spec.fields, copy);
        return build(t, code, copy);
    }

    /** {@code value} wrapped as the wrap code: a Throwable as its cause, else a WrappedValue. */
    public static State wrap(Taxonomy t, Object value) {
        Throwable cause;
        String message;
        if (value instanceof Throwable thrown) {
            cause = thrown;
            message = thrown.getClass().getName() + ": " + thrown.getMessage();
        } else {
            cause = new WrappedValue(value);
            message = cause.getMessage();
        }
        return build(t, t.wrap.code, null).withMessage(message).withCause(cause);
    }

    static void fieldsProblem(List<Taxonomy.Field> fields, Map<String, Object> details) {
        for (Taxonomy.Field field : fields) {
            String where = "details." + field.name;
            if (details == null || !details.containsKey(field.name)) {
                if (field.required) {
                    throw invalid(where, where + ": required, missing");
                }
                continue;
            }
            if (field.constant != null) {
                // Issue 30 §7: absent, or the code's constant (as JSON compares).
                if (!same(details.get(field.name), parseDefault(field.defaultJson))) {
                    throw invalid(where, where + ": expected " + field.constant
                            + ", the constant of its code, or none");
                }
                continue;
            }
            Misfit misfit = misfit(field, details.get(field.name));
            if (misfit != null) {
                throw invalid(where + misfit.at(), where + misfit.shown() + ": " + misfit.why());
            }
        }
    }

    /**
     * Where a value misfits its shape, below the field: {@code at} the path the
     * exception's field names (issue 30 §7: the deepest member of a declared
     * object that is missing or misfits, {@code .resource.kind},
     * {@code [1].reason}; "" where the value itself misfits, a bad item of an
     * array included), {@code shown} the path its message shows (a bad item's
     * index too), {@code why} what is wrong.
     */
    private record Misfit(String at, String shown, String why) {
        Misfit under(String step, boolean named) {
            return new Misfit(named ? step + at : at, step + shown, why);
        }
    }

    /**
     * Received details (checked) with each constant field they lack filled in
     * (issue 30 §7: written on every payload), in a copy (the received map is
     * the caller's); the same details when none is lacking.
     */
    private static Map<String, Object> withConstants(List<Taxonomy.Field> fields,
            Map<String, Object> details) {
        Map<String, Object> filled = details;
        for (Taxonomy.Field field : fields) {
            if (field.constant != null && (filled == null || !filled.containsKey(field.name))) {
                if (filled == details) {
                    filled = details == null ? new LinkedHashMap<>() : new LinkedHashMap<>(details);
                }
                filled.put(field.name, parseDefault(field.defaultJson));
            }
        }
        return filled;
    }

    private static final Map<String, String> WANTED = Map.of("string", "a string",
            "integer", "an integer", "number", "a number", "boolean", "a boolean",
            "array", "an array", "object", "an object");

    private static Misfit misfit(Taxonomy.Shape shape, Object v) {
        String problem = shapeProblem(shape, v);
        if (problem != null) {
            return new Misfit("", "", problem);
        }
        if (v instanceof List<?> list && shape.items != null) {
            for (int i = 0; i < list.size(); i++) {
                Misfit below = misfit(shape.items, list.get(i));
                if (below != null) {
                    // An item's member names the item; a bad item, its array.
                    return below.under("[" + i + "]", !below.at().isEmpty());
                }
            }
        }
        if (v instanceof Map<?, ?> map && shape.members != null) {
            for (Taxonomy.Field member : shape.members) {
                String step = "." + member.name;
                if (!map.containsKey(member.name)) {
                    if (member.required) {
                        return new Misfit(step, step, "required, missing");
                    }
                    continue;
                }
                Misfit below = misfit(member, map.get(member.name));
                if (below != null) {
                    return below.under(step, true);
                }
            }
        }
        return null;
    }

    /** Why {@code v} is not of the shape's own type and bounds (items and members aside), or null. */
    private static String shapeProblem(Taxonomy.Shape shape, Object v) {
        String expected = "expected " + WANTED.get(shape.type) + ", got " + Values.kind(v);
        switch (shape.type) {
            case "string" -> {
                if (!(v instanceof String s)) {
                    return expected;
                }
                if (shape.enumValues != null && !shape.enumValues.contains(s)) {
                    List<String> quoted = new ArrayList<>();
                    for (String allowed : shape.enumValues) {
                        quoted.add("\"" + allowed + "\"");
                    }
                    return "expected one of " + String.join(", ", quoted) + ", got \"" + s + "\"";
                }
                return null;
            }
            case "integer", "number" -> {
                Double n = Values.number(v);
                if (n == null) {
                    return expected;
                }
                if (shape.type.equals("integer") && (n.isInfinite() || n != Math.rint(n))) {
                    return expected;
                }
                if (shape.minimum != null && n < shape.minimum) {
                    return "expected at least " + Values.jsNumber(shape.minimum) + ", got " + Values.jsNumber(n);
                }
                if (shape.maximum != null && n > shape.maximum) {
                    return "expected at most " + Values.jsNumber(shape.maximum) + ", got " + Values.jsNumber(n);
                }
                return null;
            }
            case "boolean" -> {
                return v instanceof Boolean ? null : expected;
            }
            case "array" -> {
                return v instanceof List<?> ? null : expected;
            }
            default -> {
                return v instanceof Map<?, ?> ? null : expected;
            }
        }
    }
}
