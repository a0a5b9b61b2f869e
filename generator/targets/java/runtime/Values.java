package taxogen.runtime;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON values of details, as every taxogen runtime holds them: within the
 * limits ({@link Taxonomy#MAX_DETAILS_DEPTH}, {@link Taxonomy#MAX_DETAILS_NODES}),
 * numbers finite (a JSON number is a double everywhere: 1e400 is refused), and,
 * for details a caller gives as Java values, made of what JSON itself carries:
 * null, Boolean, String, the JDK's Number types, Maps with String keys, Lists.
 */
public final class Values {
    private Values() {}

    private static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;
        final List<String> at = new ArrayList<>();
        final boolean whole;

        Problem(String why, boolean whole) {
            super(why, null, false, false);
            this.whole = whole;
        }

        Problem under(String part) {
            at.add(part);
            return this;
        }
    }

    private static final class Checker {
        int nodes;
        final boolean given;
        final Map<Object, Boolean> path = new IdentityHashMap<>();

        Checker(boolean given) {
            this.given = given;
        }

        void check(Object v, int depth) throws Problem {
            nodes++;
            if (nodes > Taxonomy.MAX_DETAILS_NODES) {
                throw new Problem(
                        "holds more than " + Taxonomy.MAX_DETAILS_NODES + " values", true);
            }
            if (v == null || v instanceof Boolean || v instanceof String) {
                return;
            }
            if (v instanceof Number n) {
                number(n);
                return;
            }
            if (v instanceof Map<?, ?> map) {
                enter(v, depth);
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    if (!(entry.getKey() instanceof String key)) {
                        throw new Problem("a map whose keys are not strings is not a JSON object", false);
                    }
                    try {
                        check(entry.getValue(), depth + 1);
                    } catch (Problem p) {
                        throw p.under("." + key);
                    }
                }
                path.remove(v);
                return;
            }
            if (v instanceof List<?> list) {
                enter(v, depth);
                int i = 0;
                for (Object item : list) {
                    try {
                        check(item, depth + 1);
                    } catch (Problem p) {
                        throw p.under("[" + i + "]");
                    }
                    i++;
                }
                path.remove(v);
                return;
            }
            throw new Problem("a " + v.getClass().getName() + " is not a JSON value", false);
        }

        void enter(Object v, int depth) throws Problem {
            if (depth + 1 > Taxonomy.MAX_DETAILS_DEPTH) {
                throw new Problem("nested deeper than " + Taxonomy.MAX_DETAILS_DEPTH + " levels", false);
            }
            if (given && path.put(v, Boolean.TRUE) != null) {
                throw new Problem("contains itself", false);
            }
        }

        void number(Number n) throws Problem {
            boolean known = n instanceof Integer || n instanceof Long || n instanceof Short
                    || n instanceof Byte || n instanceof BigInteger || n instanceof BigDecimal
                    || n instanceof Double || n instanceof Float;
            if (!known) {
                throw new Problem("a " + n.getClass().getName() + " is not a JSON value", false);
            }
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                String text = n instanceof Double || n instanceof Float ? jsNumber(d) : n.toString();
                throw new Problem(shown(text) + " is not a finite number", false);
            }
        }
    }

    /**
     * Why {@code details} (under the name {@code where}) are refused, as
     * "&lt;where&gt;&lt;path&gt;: &lt;problem&gt;", or null when they are JSON
     * every runtime reads alike. {@code given}: a caller's Java values, a cycle
     * among them refused.
     */
    public static String detailsProblem(Object details, String where, boolean given) {
        Checker checker = new Checker(given);
        try {
            checker.check(details, 0);
            return null;
        } catch (Problem found) {
            StringBuilder out = new StringBuilder(where);
            if (!found.whole) {
                for (int i = found.at.size() - 1; i >= 0; i--) {
                    out.append(found.at.get(i));
                }
            }
            String text = out.toString();
            if (text.length() > 200) {
                text = text.substring(0, 197) + "...";
            }
            return text + ": " + found.getMessage();
        }
    }

    /** {@code v} as a double if it is a JSON number (never a boolean), else null. */
    public static Double number(Object v) {
        return v instanceof Number n ? n.doubleValue() : null;
    }

    /** The JSON type of {@code v}, as the messages name it. */
    public static String kind(Object v) {
        if (v == null) {
            return "null";
        } else if (v instanceof String) {
            return "a string";
        } else if (v instanceof Boolean) {
            return "a boolean";
        } else if (v instanceof Map<?, ?>) {
            return "an object";
        } else if (v instanceof Collection<?>) {
            return "an array";
        } else if (v instanceof Number) {
            return "a number";
        }
        return "a " + v.getClass().getName();
    }

    /** A number as JavaScript's String(number) writes it. */
    public static String jsNumber(double n) {
        if (n == 0) {
            return "0";
        } else if (Double.isNaN(n)) {
            return "NaN";
        } else if (Double.isInfinite(n)) {
            return n > 0 ? "Infinity" : "-Infinity";
        }
        BigDecimal exact = new BigDecimal(Double.toString(n)).stripTrailingZeros();
        double a = Math.abs(n);
        if (a >= 1e-6 && a < 1e21) {
            return exact.toPlainString();
        }
        String digits = exact.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - exact.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (n < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+") + Math.abs(exponent);
    }

    /** A placeholder's value as every runtime writes it in a message. */
    public static String text(Object v) {
        if (v instanceof String s) {
            return s;
        } else if (v instanceof Boolean b) {
            return b.toString();
        } else if (v instanceof Number n) {
            return jsNumber(n.doubleValue());
        }
        return String.valueOf(v);
    }

    static String shown(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
