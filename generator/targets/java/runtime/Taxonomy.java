package taxogen.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The tables a generated package hands to every runtime function: each code's
 * {@link Spec}, the fallback and wrap codes, the code pattern (null: codes are
 * integers, each held as its decimal text), the events table, the domains'
 * matches and the payload mapping. Built once, by the generated package's
 * {@code Registry}, through a {@link Builder}.
 */
public final class Taxonomy {
    /** The longest code a payload may carry, in characters. */
    public static final int MAX_CODE_LENGTH = 256;
    /** How deep details may nest (the details object is depth 1). */
    public static final int MAX_DETAILS_DEPTH = 64;
    /** How many values details may hold, the details object included. */
    public static final int MAX_DETAILS_NODES = 100000;
    /** How far from 0 an integer code may be (JavaScript's safe integers). */
    public static final long MAX_WIRE_INTEGER = (1L << 53) - 1;

    /** What the error of a code (or a domain's match) is built as. */
    public interface Factory extends Function<State, RuntimeException> {}

    /**
     * What a details value (or an array's item, or a nested object's member)
     * must be: an {@code object} with {@link #fields} declares its members
     * (issue 30 §7, a nested typed object; null: free-form), an {@code array}
     * with {@link #items} its items.
     */
    public static class Shape {
        final String type;
        List<String> enumValues;
        Double minimum;
        Double maximum;
        Shape items;
        List<Field> members;

        /** A value of JSON type {@code type}. */
        public Shape(String type) {
            this.type = type;
        }

        /** One of these strings. */
        public Shape oneOf(String... values) {
            enumValues = List.of(values);
            return this;
        }

        /** At least {@code value}. */
        public Shape min(double value) {
            minimum = value;
            return this;
        }

        /** At most {@code value}. */
        public Shape max(double value) {
            maximum = value;
            return this;
        }

        /** An array's items are {@code shape}. */
        public Shape items(Shape shape) {
            items = shape;
            return this;
        }

        /**
         * An object's declared members (issue 30 §7): each checked on
         * decoding, any other member kept as received.
         */
        public Shape fields(Field... declared) {
            members = List.of(declared);
            return this;
        }
    }

    /** A declared details field of a code, or a member of a nested object. */
    public static final class Field extends Shape {
        final String name;
        final boolean required;
        String defaultJson;
        // A constant field's value as messages show it (issue 30 §7), its
        // defaultJson the value itself; null when the field is no constant.
        String constant;

        /** The field {@code name}, of JSON type {@code type}. */
        public Field(String name, String type, boolean required) {
            super(type);
            this.name = name;
            this.required = required;
        }

        @Override
        public Field oneOf(String... values) {
            super.oneOf(values);
            return this;
        }

        @Override
        public Field min(double value) {
            super.min(value);
            return this;
        }

        @Override
        public Field max(double value) {
            super.max(value);
            return this;
        }

        @Override
        public Field items(Shape shape) {
            super.items(shape);
            return this;
        }

        @Override
        public Field fields(Field... declared) {
            super.fields(declared);
            return this;
        }

        /** Its default, as JSON text. */
        public Field defaultJson(String json) {
            defaultJson = json;
            return this;
        }

        /**
         * Its value is fixed for the code (issue 30 §7): its default, which
         * messages show as {@code shown}.
         */
        public Field constant(String shown) {
            constant = shown;
            return this;
        }
    }

    /** Literal text of a message template, then the field rendered after it (or null). */
    public record Piece(String text, String field) {}

    /** What the taxonomy says of one code. */
    public static final class Spec {
        final String code;
        final String domain;
        final boolean retryable;
        final String meaning;
        final Class<?> type;
        final Factory factory;
        List<Field> fields = List.of();
        List<Piece> template;
        int httpStatus;
        String grpcStatus;
        boolean throttling;
        String docUrl;
        String retryAfterField;

        /** The code {@code code} of {@code domain}, its errors built by {@code factory}. */
        public Spec(String code, String domain, boolean retryable, String meaning,
                Class<?> type, Factory factory) {
            this.code = code;
            this.domain = domain;
            this.retryable = retryable;
            this.meaning = meaning;
            this.type = type;
            this.factory = factory;
        }

        /** Its declared details fields. */
        public Spec fields(Field... declared) {
            fields = List.of(declared);
            return this;
        }

        /** Its message template. */
        public Spec template(Piece... pieces) {
            template = List.of(pieces);
            return this;
        }

        /** Its HTTP status. */
        public Spec http(int status) {
            httpStatus = status;
            return this;
        }

        /** Its canonical gRPC status name. */
        public Spec grpc(String status) {
            grpcStatus = status;
            return this;
        }

        /** Callers must back off before retrying. */
        public Spec throttling() {
            throttling = true;
            return this;
        }

        /** Its documentation link. */
        public Spec doc(String url) {
            docUrl = url;
            return this;
        }

        /** The details field that says when to retry, in seconds. */
        public Spec retryAfter(String field) {
            retryAfterField = field;
            return this;
        }

        /** The code. */
        public String code() {
            return code;
        }
    }

    /**
     * One prefix (string codes) or inclusive range (integer codes) of a
     * domain's match: an unknown code in it is treated as {@code code} of
     * {@code domain}, an error of the domain's class.
     */
    public static final class Match {
        final String domain;
        final String code;
        final Class<?> type;
        final Factory factory;
        final String meaning;
        /**
         * An unknown code in it keeps its identity: the domain says fallback:
         * null, or nothing lends it a code (no fallback, no {@code <domain>_error}).
         */
        boolean keeps;
        String prefix = "";
        long low;
        long high;
        int httpStatus;
        String grpcStatus;

        /**
         * A match of {@code domain}, treated as {@code code} (null: the code keeps
         * its identity), built by {@code factory}.
         */
        public Match(String domain, String code, Class<?> type, Factory factory, String meaning) {
            this.domain = domain;
            this.code = code;
            this.keeps = code == null;
            this.type = type;
            this.factory = factory;
            this.meaning = meaning;
        }

        /** An unknown code in it keeps its identity (the domain says fallback: null). */
        public Match keeps() {
            keeps = true;
            return this;
        }

        /** The codes starting with {@code text}. */
        public Match prefix(String text) {
            prefix = text;
            return this;
        }

        /** The integer codes from {@code from} to {@code to}. */
        public Match range(long from, long to) {
            low = from;
            high = to;
            return this;
        }

        /** Its class's HTTP status. */
        public Match http(int status) {
            httpStatus = status;
            return this;
        }

        /** Its class's gRPC status. */
        public Match grpc(String status) {
            grpcStatus = status;
            return this;
        }
    }

    /**
     * The payload a taxonomy's errors travel as, where it is not {code,
     * message, retryable, details}: the member of each field ("" where it is
     * not on the wire), as the Go runtime's PayloadMap says.
     */
    public static final class PayloadMap {
        final String code;
        final String message;
        final String retryable;
        final String details;
        final String detailsType;
        final String envelope;
        final boolean alwaysDetails;
        String[] uri;
        boolean messageRequired = true;
        String status = "";
        boolean exactMessage;
        final Map<String, Object> constants = new LinkedHashMap<>();
        final Map<String, String> constantTexts = new LinkedHashMap<>();
        boolean outside;

        /** The members of each field. */
        public PayloadMap(String code, String message, String retryable, String details,
                String detailsType, String envelope, boolean alwaysDetails) {
            this.code = code;
            this.message = message;
            this.retryable = retryable;
            this.details = details;
            this.detailsType = detailsType;
            this.envelope = envelope;
            this.alwaysDetails = alwaysDetails;
        }

        /** Whether the mapping names {@code key} as one of the error's own members. */
        boolean names(String key) {
            for (String member : new String[] {code, message, retryable, status, details}) {
                if (!member.isEmpty() && member.equals(key)) {
                    return true;
                }
            }
            return false;
        }

        /** RFC 9457's type URI: the code between {@code prefix} and {@code suffix}. */
        public PayloadMap uri(String prefix, String suffix) {
            uri = new String[] {prefix, suffix};
            return this;
        }

        /** Whether a payload must carry the message. */
        public PayloadMap messageRequired(boolean required) {
            messageRequired = required;
            return this;
        }

        /** The member holding the HTTP status. */
        public PayloadMap status(String member) {
            status = member;
            return this;
        }

        /** A payload without the message gives the template's, and is written back without it. */
        public PayloadMap exactMessage() {
            exactMessage = true;
            return this;
        }

        /** A member every payload carries, its value as JSON text. */
        public PayloadMap constant(String name, String json) {
            try {
                constants.put(name, Json.parse(json));
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException(e);
            }
            constantTexts.put(name, json);
            return this;
        }

        /** The members beside the envelope are kept and written back. */
        public PayloadMap outside() {
            outside = true;
            return this;
        }

        boolean fixed(String key) {
            return envelope.isEmpty() && constants.containsKey(key);
        }
    }

    /** Builds a taxonomy's tables. */
    public static final class Builder {
        private final Taxonomy t;

        private Builder(String pattern) {
            t = new Taxonomy(pattern == null ? null : Pattern.compile(pattern));
        }

        /** A code. */
        public Builder add(Spec spec) {
            t.specs.put(spec.code, spec);
            return this;
        }

        /** Another spelling of a code, read as that code. */
        public Builder alias(String alias, String code) {
            t.specs.put(alias, t.specs.get(code));
            return this;
        }

        /** Where an event type carries its error. */
        public Builder event(String type, String location) {
            t.events.put(type, location);
            return this;
        }

        /** A domain's match. */
        public Builder match(Match match) {
            t.matches.add(match);
            return this;
        }

        /** The payload mapping. */
        public Builder payload(PayloadMap payload) {
            t.payload = payload;
            return this;
        }

        /**
         * No fallback (fallback: null): an unknown code keeps its identity, an
         * error of the root class ({@code type}, {@code factory}) with no domain,
         * {@code meaning} as its meaning, and retryable where its payload does not
         * say as {@code rule} says ("false", "true", or "by_status": a 5xx status
         * received).
         */
        public Builder withoutFallback(String meaning, String rule, Class<?> type, Factory factory) {
            t.unknown = new Spec("", null, "true".equals(rule), meaning, type, factory);
            t.unknownRule = rule;
            return this;
        }

        /** Where a domain says fallback: null: an unknown code's retryable rule. */
        public Builder unknownRetryable(String rule) {
            t.unknownRule = rule;
            return this;
        }

        /** The tables, with their fallback (null: none) and wrap codes. */
        public Taxonomy build(String fallback, String wrap) {
            t.fallback = fallback == null ? null : t.specs.get(fallback);
            t.wrap = t.specs.get(wrap);
            t.matches.sort(Comparator.<Match>comparingInt(m -> -m.prefix.length())
                    .thenComparingLong(m -> m.high - m.low));
            return t;
        }
    }

    final Map<String, Spec> specs = new HashMap<>();
    /** The fallback code's spec; null with no fallback (then {@link #unknown} says). */
    Spec fallback;
    Spec unknown;
    String unknownRule = "false";
    Spec wrap;
    final Pattern pattern;
    final Map<String, String> events = new LinkedHashMap<>();
    final List<Match> matches = new ArrayList<>();
    PayloadMap payload;

    private Taxonomy(Pattern pattern) {
        this.pattern = pattern;
    }

    /** A builder; {@code pattern}: what a string code matches, null for integer codes. */
    public static Builder builder(String pattern) {
        return new Builder(pattern);
    }

    /** The code a received code is treated as. */
    public String lookup(String code) {
        Spec spec = specs.get(code);
        if (spec != null) {
            return spec.code;
        }
        Match m = match(code);
        if (m != null && !m.keeps) {
            return m.code;
        }
        return kept(m) ? code : fallback.code;
    }

    /** The class of the error a received code gives. */
    public Class<?> lookupClass(String code) {
        Spec spec = specs.get(code);
        if (spec != null) {
            return spec.type;
        }
        Match m = match(code);
        if (m != null) {
            return m.type;
        }
        return fallback == null ? unknown.type : fallback.type;
    }

    /** Whether lookup(code) is retryable. */
    public boolean isRetryable(String code) {
        Spec spec = specs.get(lookup(code));
        return spec != null ? spec.retryable : "true".equals(unknownRule);
    }

    /** Whether the taxonomy has no fallback: an unknown code keeps its identity. */
    boolean keeps() {
        return fallback == null;
    }

    /** Whether an unknown code that fell in {@code m} (null: none) keeps its identity. */
    boolean kept(Match m) {
        return m != null ? m.keeps : fallback == null;
    }

    /**
     * The spec of an unknown code that keeps its identity: what the code of its
     * match's class (else the root) says, under its own code.
     */
    Spec kept(String code, Match m) {
        Spec base = m != null && m.code != null ? specs.get(m.code) : unknown;
        Spec spec = new Spec(code, base.domain, base.retryable, base.meaning, base.type,
                base.factory);
        spec.httpStatus = base.httpStatus;
        spec.grpcStatus = base.grpcStatus;
        spec.throttling = base.throttling;
        spec.docUrl = base.docUrl;
        spec.retryAfterField = base.retryAfterField;
        return spec;
    }

    /** Whether an unknown code that keeps its identity, received with {@code status} (0: none), is retryable. */
    boolean retryableUnknown(int status) {
        if ("by_status".equals(unknownRule)) {
            return status >= 500 && status <= 599;
        }
        return "true".equals(unknownRule);
    }

    /** The events table: event type to where its error sits. */
    public Map<String, String> events() {
        return Collections.unmodifiableMap(events);
    }

    Match match(String code) {
        Long number = null;
        try {
            number = Long.parseLong(code);
        } catch (NumberFormatException e) {
            // not an integer: only prefixes apply
        }
        for (Match m : matches) {
            if (pattern != null) {
                if (!m.prefix.isEmpty() && code.startsWith(m.prefix)) {
                    return m;
                }
            } else if (number != null && m.prefix.isEmpty() && m.low <= number && number <= m.high) {
                return m;
            }
        }
        return null;
    }

    Spec spec(String code) {
        return specs.get(code);
    }

    static List<String> list(String... items) {
        return Arrays.asList(items);
    }
}
