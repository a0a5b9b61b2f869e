package taxogen.runtime;

/** The cause {@code toError} gives a value that is not a Throwable. */
public final class WrappedValue extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Object value;

    /** {@code value} wrapped. */
    public WrappedValue(Object value) {
        super("non-error value: " + value);
        this.value = value;
    }

    /** The value wrapped. */
    public Object value() {
        return value;
    }
}
