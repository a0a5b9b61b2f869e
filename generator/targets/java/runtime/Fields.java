package taxogen.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Details values read as a details record's components, and a nested object's
 * (issue 30 §7) as its record's: absent (or null) is null; a value of another
 * type than the field declares is an {@link InvalidPayloadException} naming it
 * by its path (only an error treated as a code it was not received as can hold
 * one: a received code's details are checked). Each reader takes the object
 * ({@code details}), its path ({@code at}: {@code "details"},
 * {@code "details.causes[1]"}) and the member's key.
 */
public final class Fields {
    private Fields() {}

    /** A nested object's record: its members as the payload holds them. */
    public interface Nested {
        /** The object, as a map of its declared members. */
        Map<String, Object> toMap();
    }

    private static InvalidPayloadException misfit(String key, String wanted, Object v) {
        return new InvalidPayloadException(key, key + ": expected " + wanted + ", got " + Values.kind(v));
    }

    /** A string field. */
    public static String string(Map<String, Object> details, String at, String key) {
        Object v = details.get(key);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw misfit(at + "." + key, "a string", v);
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
    public static Long integer(Map<String, Object> details, String at, String key) {
        return toLong(at + "." + key, details.get(key));
    }

    /** A number field. */
    public static Double number(Map<String, Object> details, String at, String key) {
        return toDouble(at + "." + key, details.get(key));
    }

    /** A boolean field. */
    public static Boolean bool(Map<String, Object> details, String at, String key) {
        Object v = details.get(key);
        if (v == null || v instanceof Boolean) {
            return (Boolean) v;
        }
        throw misfit(at + "." + key, "a boolean", v);
    }

    /** An object field. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Map<String, Object> details, String at, String key) {
        Object v = details.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> map) {
            return Collections.unmodifiableMap(new LinkedHashMap<>((Map<String, Object>) map));
        }
        throw misfit(at + "." + key, "an object", v);
    }

    /** A nested typed object, read by its record's {@code from}. */
    @SuppressWarnings("unchecked")
    public static <T> T record(Map<String, Object> details, String at, String key,
            BiFunction<Map<String, Object>, String, T> from) {
        Object v = details.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> map) {
            return from.apply((Map<String, Object>) map, at + "." + key);
        }
        throw misfit(at + "." + key, "an object", v);
    }

    /** An array of nested typed objects, each read by its record's {@code from}. */
    @SuppressWarnings("unchecked")
    public static <T> List<T> records(Map<String, Object> details, String at, String key,
            BiFunction<Map<String, Object>, String, T> from) {
        Object v = details.get(key);
        String where = at + "." + key;
        if (v == null) {
            return null;
        }
        if (!(v instanceof List<?> list)) {
            throw misfit(where, "an array", v);
        }
        List<T> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object element = list.get(i);
            if (!(element instanceof Map<?, ?> map)) {
                throw misfit(where, "an array of objects", element);
            }
            out.add(from.apply((Map<String, Object>) map, where + "[" + i + "]"));
        }
        return Collections.unmodifiableList(out);
    }

    /** Nested records as the payload holds them (a null item stays null). */
    public static List<Object> maps(List<? extends Nested> records) {
        List<Object> out = new ArrayList<>(records.size());
        for (Nested record : records) {
            out.add(record == null ? null : record.toMap());
        }
        return out;
    }

    /** An array field whose items are {@code item} ("object" for any JSON value). */
    public static <T> List<T> list(Map<String, Object> details, String at, String key,
            String item, Class<T> type) {
        Object v = details.get(key);
        String where = at + "." + key;
        if (v == null) {
            return null;
        }
        if (!(v instanceof List<?> list)) {
            throw misfit(where, "an array", v);
        }
        List<T> out = new ArrayList<>(list.size());
        for (Object element : list) {
            Object value = switch (item) {
                case "integer" -> toLong(where, element);
                case "number" -> toDouble(where, element);
                case "string", "boolean" -> type.isInstance(element) || element == null
                        ? element : fail(where, item, element);
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
