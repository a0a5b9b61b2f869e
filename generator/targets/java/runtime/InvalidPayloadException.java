package taxogen.runtime;

/**
 * Why a payload, an event or the details given to {@code create} were refused:
 * {@link #field()} names the bad field ("payload", "code", "message",
 * "retryable", "details", "details.&lt;name&gt;", "event", or a member of the
 * taxonomy's payload).
 */
public final class InvalidPayloadException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String field;

    /** A refusal of {@code field}, said by {@code message}. */
    public InvalidPayloadException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The field refused. */
    public String field() {
        return field;
    }
}
