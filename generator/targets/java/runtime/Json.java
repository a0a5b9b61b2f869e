package taxogen.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text to the values every taxogen runtime holds and back: objects as
 * {@code Map<String, Object>} (members in order), arrays as {@code List<Object>},
 * strings, booleans, null, and numbers as Jackson reads them (Integer, Long,
 * BigInteger for integers; Double for the rest, which is what every runtime
 * reads a number as). Reading is iterative, so no nesting overflows the stack;
 * the limits are checked afterwards ({@link Values}).
 */
public final class Json {
    private static final JsonFactory FACTORY = new JsonFactory();

    /**
     * One JSON value read from {@code text} (RFC 8259, strictly); nothing but
     * whitespace may follow it. Read here rather than by Jackson, whose bounds
     * (nesting, number and name lengths) differ from version to version: the
     * limits every runtime shares are checked afterwards ({@link Values}), so a
     * payload is refused by the same rule, naming the same field, everywhere.
     */
    public static Object parse(String text) throws IOException {
        return new Reader(text).document();
    }

    /** An iterative reader: no nesting overflows the stack. */
    private static final class Reader {
        private final String text;
        private int at;

        Reader(String text) {
            this.text = text;
        }

        private IOException error(String what) {
            return new IOException(what + " at character " + at);
        }

        private void space() {
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                at++;
            }
        }

        private char peek() throws IOException {
            space();
            if (at >= text.length()) {
                throw error("unexpected end of input");
            }
            return text.charAt(at);
        }

        Object document() throws IOException {
            Deque<Object> open = new ArrayDeque<>();
            Deque<String> keys = new ArrayDeque<>();
            Object value;
            while (true) {
                char c = peek();
                if (c == '{') {
                    at++;
                    if (peek() == '}') {
                        at++;
                        value = new LinkedHashMap<String, Object>();
                    } else {
                        open.push(new LinkedHashMap<String, Object>());
                        keys.push(key());
                        continue;
                    }
                } else if (c == '[') {
                    at++;
                    if (peek() == ']') {
                        at++;
                        value = new ArrayList<Object>();
                    } else {
                        open.push(new ArrayList<Object>());
                        continue;
                    }
                } else {
                    value = scalar(c);
                }
                // Close every container the value completes.
                while (true) {
                    if (open.isEmpty()) {
                        space();
                        if (at != text.length()) {
                            throw error("data after the JSON value");
                        }
                        return value;
                    }
                    Object container = open.peek();
                    add(container, keys, value);
                    char next = peek();
                    at++;
                    if (next == ',') {
                        if (container instanceof Map<?, ?>) {
                            keys.push(key());
                        }
                        break;
                    }
                    if (next != (container instanceof Map<?, ?> ? '}' : ']')) {
                        at--;
                        throw error("expected ',' or the container's end");
                    }
                    value = open.pop();
                }
            }
        }

        private String key() throws IOException {
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String key = string();
            if (peek() != ':') {
                throw error("expected ':'");
            }
            at++;
            return key;
        }

        private Object scalar(char c) throws IOException {
            if (c == '"') {
                return string();
            } else if (text.startsWith("true", at)) {
                at += 4;
                return Boolean.TRUE;
            } else if (text.startsWith("false", at)) {
                at += 5;
                return Boolean.FALSE;
            } else if (text.startsWith("null", at)) {
                at += 4;
                return null;
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                return number();
            }
            throw error("unexpected character");
        }

        private String string() throws IOException {
            at++; // the opening quote
            StringBuilder out = new StringBuilder();
            while (true) {
                if (at >= text.length()) {
                    throw error("unterminated string");
                }
                char c = text.charAt(at++);
                if (c == '"') {
                    return out.toString();
                } else if (c < 0x20) {
                    throw error("control character in a string");
                } else if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (at >= text.length()) {
                    throw error("unterminated string");
                }
                char e = text.charAt(at++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (at + 4 > text.length()) {
                            throw error("bad \\u escape");
                        }
                        int code = 0;
                        for (int i = 0; i < 4; i++) {
                            int digit = Character.digit(text.charAt(at++), 16);
                            if (digit < 0) {
                                throw error("bad \\u escape");
                            }
                            code = code * 16 + digit;
                        }
                        out.append((char) code);
                    }
                    default -> throw error("bad escape");
                }
            }
        }

        private Number number() throws IOException {
            int start = at;
            if (text.charAt(at) == '-') {
                at++;
            }
            int digits = at;
            while (at < text.length() && Character.isDigit(text.charAt(at)) && text.charAt(at) < 128) {
                at++;
            }
            if (at == digits || (text.charAt(digits) == '0' && at - digits > 1)) {
                throw error("bad number");
            }
            boolean integral = true;
            if (at < text.length() && text.charAt(at) == '.') {
                integral = false;
                at++;
                int fraction = at;
                while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
                    at++;
                }
                if (at == fraction) {
                    throw error("bad number");
                }
            }
            if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
                integral = false;
                at++;
                if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) {
                    at++;
                }
                int exponent = at;
                while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
                    at++;
                }
                if (at == exponent) {
                    throw error("bad number");
                }
            }
            String number = text.substring(start, at);
            return integral ? integer(number) : (Number) Double.parseDouble(number);
        }
    }

    /**
     * An integer's text as a Long, a BigInteger (exact up to 400 digits), or,
     * longer, the double it is (infinite: past any double, and refused), which
     * costs no more than reading it.
     */
    private static Number integer(String text) {
        if (text.length() <= 18) {
            return Long.parseLong(text);
        }
        return text.length() <= 400 ? new BigInteger(text) : (Number) Double.parseDouble(text);
    }

    @SuppressWarnings("unchecked")
    private static void add(Object container, Deque<String> keys, Object value) {
        if (container instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).put(keys.pop(), value);
        } else {
            ((List<Object>) container).add(value);
        }
    }

    /** {@code value} as JSON text. */
    public static String write(Object value) {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = FACTORY.createGenerator(out)) {
            write(generator, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void write(JsonGenerator out, Object value) throws IOException {
        if (value == null) {
            out.writeNull();
        } else if (value instanceof String s) {
            out.writeString(s);
        } else if (value instanceof Boolean b) {
            out.writeBoolean(b);
        } else if (value instanceof BigInteger n) {
            out.writeNumber(n);
        } else if (value instanceof BigDecimal n) {
            out.writeNumber(n);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                out.writeNumber((long) d);
            } else {
                out.writeNumber(d);
            }
        } else if (value instanceof Number n) {
            out.writeNumber(n.longValue());
        } else if (value instanceof Map<?, ?> map) {
            out.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.writeFieldName(String.valueOf(entry.getKey()));
                write(out, entry.getValue());
            }
            out.writeEndObject();
        } else if (value instanceof Collection<?> list) {
            out.writeStartArray();
            for (Object item : list) {
                write(out, item);
            }
            out.writeEndArray();
        } else if (value instanceof Object[] array) {
            write(out, java.util.Arrays.asList(array));
        } else if (value instanceof Raw raw) {
            out.writeRawValue(raw.text());
        } else {
            out.writeString(String.valueOf(value));
        }
    }

    /** JSON text written as it is (an integer wire code). */
    record Raw(String text) {}
}
