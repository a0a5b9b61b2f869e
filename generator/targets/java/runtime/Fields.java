package taxogen.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Details values read as a details record's components: absent (or null) is
 * null; a value of another type than the field declares is an
 * {@link InvalidPayloadException} naming the field (only an error treated as a
 * code it was not received as can hold one: a received code's details are
 * checked).
 */
public final class Fields {
    private Fields() {}

    private static InvalidPayloadException misfit(String key, String wanted, Object v) {
        return new InvalidPayloadException("details." + key,
                "details." + key + ": expected " + wanted + ", got " + Values.kind(v));
    }

    /** A string field. */
    public static String string(Map<String, Object> details, String key) {
        Object v = details.get(key);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw misfit(key, "a string", v);
    }

    private static Long toLong(String key, Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (d == Math.rint(d) && !Double.isInfinite(d)) {
                return n.longValue();
            }
        }
        throw misfit(key, "an integer", v);
    }

    private static Double toDouble(String key, Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw misfit(key, "a number", v);
    }

    /** An integer field. */
    public static Long integer(Map<String, Object> details, String key) {
        return toLong(key, details.get(key));
    }

    /** A number field. */
    public static Double number(Map<String, Object> details, String key) {
        return toDouble(key, details.get(key));
    }

    /** A boolean field. */
    public static Boolean bool(Map<String, Object> details, String key) {
        Object v = details.get(key);
        if (v == null || v instanceof Boolean) {
            return (Boolean) v;
        }
        throw misfit(key, "a boolean", v);
    }

    /** An object field. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Map<String, Object> details, String key) {
        Object v = details.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> map) {
            return Collections.unmodifiableMap(new LinkedHashMap<>((Map<String, Object>) map));
        }
        throw misfit(key, "an object", v);
    }

    /** An array field whose items are {@code item} ("object" for any JSON value). */
    public static <T> List<T> list(Map<String, Object> details, String key, String item,
            Class<T> type) {
        Object v = details.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof List<?> list)) {
            throw misfit(key, "an array", v);
        }
        List<T> out = new ArrayList<>(list.size());
        for (Object element : list) {
            Object value = switch (item) {
                case "integer" -> toLong(key, element);
                case "number" -> toDouble(key, element);
                case "string", "boolean" -> type.isInstance(element) || element == null
                        ? element : fail(key, item, element);
                default -> element;
            };
            out.add(type.cast(value));
        }
        return Collections.unmodifiableList(out);
    }

    private static Object fail(String key, String item, Object element) {
        throw misfit(key, "an array of " + item + "s", element);
    }
}
