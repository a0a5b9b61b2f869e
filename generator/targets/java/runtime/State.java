package taxogen.runtime;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What an error of the taxonomy holds, whatever its class: the code it is
 * treated as (its {@link Taxonomy.Spec}), the wire code as received, the
 * message, retryable, the details, the cause, and what the taxonomy maps its
 * code to. A generated error class holds one and answers from it; its
 * {@link #toPayload()} is the wire payload.
 */
public final class State {
    final Taxonomy taxonomy;
    final Taxonomy.Spec spec;
    final String wireCode;
    final String message;
    final boolean retryable;
    final Map<String, Object> details;
    final Object data;
    final Throwable cause;
    final boolean messageAbsent;
    final Map<String, Object> outside;
    final Taxonomy.Match matched;
    final int status;

    State(Taxonomy taxonomy, Taxonomy.Spec spec, String wireCode, String message,
            boolean retryable, Map<String, Object> details, Object data, Throwable cause,
            boolean messageAbsent, Map<String, Object> outside, Taxonomy.Match matched,
            int status) {
        this.taxonomy = taxonomy;
        this.spec = spec;
        this.wireCode = wireCode;
        this.message = message;
        this.retryable = retryable;
        this.details = details;
        this.data = data;
        this.cause = cause;
        this.messageAbsent = messageAbsent;
        this.outside = outside;
        this.matched = matched;
        this.status = status;
    }

    private State with(String newMessage, boolean absent, Throwable newCause, int newStatus) {
        return new State(taxonomy, spec, wireCode, newMessage, retryable, details, data,
                newCause, absent, outside, matched, newStatus);
    }

    /** The error this state is, built as its code's (or match's) class. */
    public RuntimeException error() {
        return (matched != null ? matched.factory : spec.factory).apply(this);
    }

    /** A copy with another message. */
    public State withMessage(String text) {
        return with(text, false, cause, status);
    }

    /** A copy that wraps {@code newCause}. */
    public State withCause(Throwable newCause) {
        return with(message, messageAbsent, newCause, status);
    }

    /** A copy with its own HTTP status, from 100 to 599. */
    public State withHttpStatus(int newStatus) {
        if (newStatus < 100 || newStatus > 599) {
            throw new IllegalArgumentException(
                    "expected an HTTP status from 100 to 599, got " + newStatus);
        }
        return with(message, messageAbsent, cause, newStatus);
    }

    /** The code the error is treated as. */
    public String code() {
        return spec.code;
    }

    /** The code as received (else the code). */
    public String wireCode() {
        return wireCode == null || wireCode.isEmpty() ? spec.code : wireCode;
    }

    /** The message. */
    public String message() {
        return message;
    }

    /** Whether the error is retryable, as received or as its code says. */
    public boolean retryable() {
        return retryable;
    }

    /** The details (empty when there are none), unmodifiable. */
    public Map<String, Object> details() {
        return details == null ? Map.of() : Collections.unmodifiableMap(details);
    }

    /** The details where they are not always an object (details_type array or any). */
    public Object data() {
        return data;
    }

    /** What the error wraps, or null. */
    public Throwable cause() {
        return cause;
    }

    /** Received without its message (the message is then the template's or the meaning). */
    public boolean messageAbsent() {
        return messageAbsent;
    }

    /**
     * The members received beside the envelope, or without one those the mapping
     * does not name (outside: keep), or an empty map.
     */
    public Map<String, Object> outside() {
        return outside == null ? Map.of() : Collections.unmodifiableMap(outside);
    }

    /** The domain of the error's code (or of the match it fell in). */
    public String domain() {
        return matched != null ? matched.domain : spec.domain;
    }

    /** What the taxonomy says the error's code means. */
    public String meaning() {
        return matched != null ? matched.meaning : spec.meaning;
    }

    /** Its HTTP status: received, else given, else its code's; empty where none. */
    public OptionalInt httpStatus() {
        int found = status != 0 ? status : matched != null ? matched.httpStatus : spec.httpStatus;
        return found == 0 ? OptionalInt.empty() : OptionalInt.of(found);
    }

    /** The canonical gRPC status name its code maps to. */
    public Optional<String> grpcStatus() {
        return Optional.ofNullable(matched != null ? matched.grpcStatus : spec.grpcStatus);
    }

    /** Whether callers must back off before retrying. */
    public boolean throttling() {
        return spec.throttling;
    }

    /** The documentation link of its code. */
    public Optional<String> docUrl() {
        return Optional.ofNullable(spec.docUrl);
    }

    /** When to retry: the details field its code names (retry_after:), in seconds. */
    public Optional<Duration> retryAfter() {
        if (spec.retryAfterField == null || details == null) {
            return Optional.empty();
        }
        Double seconds = Values.number(details.get(spec.retryAfterField));
        if (seconds == null || seconds.isNaN()) {
            return Optional.empty();
        }
        double nanos = seconds * 1e9;
        if (nanos >= Long.MAX_VALUE) {
            return Optional.of(Duration.ofNanos(Long.MAX_VALUE));
        } else if (nanos <= Long.MIN_VALUE) {
            return Optional.of(Duration.ofNanos(Long.MIN_VALUE));
        }
        return Optional.of(Duration.ofNanos((long) nanos));
    }

    /** The wire payload, as JSON text. */
    public String toPayload() {
        return Json.write(payloadValue());
    }

    /** The wire payload, as JSON values. */
    public Map<String, Object> payloadValue() {
        if (taxonomy.payload != null) {
            return mapped(taxonomy.payload);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", codeValue());
        body.put("message", message);
        body.put("retryable", retryable);
        body.put("details", details == null ? Map.of() : details);
        return body;
    }

    private Object codeValue() {
        return taxonomy.pattern == null ? new Json.Raw(wireCode()) : wireCode();
    }

    private boolean isMember(Taxonomy.PayloadMap p, String key) {
        return key.equals(p.code) || key.equals(p.message)
                || (!p.retryable.isEmpty() && key.equals(p.retryable))
                || (!p.status.isEmpty() && key.equals(p.status)) || p.fixed(key);
    }

    private Map<String, Object> mapped(Taxonomy.PayloadMap p) {
        Map<String, Object> body = new LinkedHashMap<>();
        Map<String, Object> outer = body;
        if (p.envelope.isEmpty() && p.outside && outside != null) {
            body.putAll(outside); // the error's own members, put below, win
        }
        if (!p.envelope.isEmpty()) {
            outer = new LinkedHashMap<>();
            if (p.outside && outside != null) {
                outer.putAll(outside);
            }
            outer.put(p.envelope, body);
        }
        outer.putAll(p.constants);
        if (p.uri != null) {
            Object kept = details == null ? null : details.get(p.code);
            String uri = kept instanceof String s && "*".equals(p.details)
                    ? s : p.uri[0] + Codec.percentEncode(wireCode()) + p.uri[1];
            body.put(p.code, uri);
            body.put("title", meaning());
            OptionalInt found = httpStatus();
            body.put("status", found.isPresent() ? found.getAsInt() : null);
        } else {
            body.put(p.code, codeValue());
        }
        if (!(p.exactMessage && messageAbsent)) {
            body.put(p.message, message);
        }
        if (!p.retryable.isEmpty()) {
            body.put(p.retryable, retryable);
        }
        if (!p.status.isEmpty() && httpStatus().isPresent()) {
            body.put(p.status, httpStatus().getAsInt());
        }
        if ("*".equals(p.details)) {
            if (details != null) {
                for (Map.Entry<String, Object> e : details.entrySet()) {
                    if (!isMember(p, e.getKey())) {
                        body.put(e.getKey(), e.getValue());
                    }
                }
            }
        } else if (!p.details.isEmpty()) {
            Object value;
            boolean empty;
            if ("object".equals(p.detailsType)) {
                value = details == null ? Map.of() : details;
                empty = details == null || details.isEmpty();
            } else {
                value = data;
                empty = data == null || (data instanceof List<?> l && l.isEmpty())
                        || (data instanceof Map<?, ?> m && m.isEmpty());
            }
            if (p.alwaysDetails || !empty) {
                body.put(p.details, value);
            }
        }
        return outer;
    }
}
