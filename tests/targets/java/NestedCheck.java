// A consumer of nested details (issue 30 §7) in Java, through the packages of
// tests/cases/nested_details and tests/cases/kubernetes (compiled as
// cases.<case> with every case): the records docs/java.md "Nested objects"
// names, built and read by their typed accessors, written with each member's
// wire name, and read back from a payload with the members they do not
// declare kept. The oracles are the two taxonomies (members, which are
// required, their wire names), the real bodies it is given and the issue's
// rule for the path a refusal names. It prints "FAIL <what>" per failure and "checked N", and exits 1 on
// any failure. tests/targets/java/test_java_nested.py runs it.
import cases.kubernetes.StatusDetailsCausesItem;
import cases.kubernetes.StatusError;
import cases.nested_details.ApiDetailsCausesItem;
import cases.nested_details.ApiError;
import cases.nested_details.Errors;
import cases.nested_details.InvalidDetails;
import cases.nested_details.InvalidError;
import cases.nested_details.NotFoundDetails;
import cases.nested_details.NotFoundError;
import cases.nested_details.ResourceDetailsResource;
import cases.nested_details.ResourceDetailsResourceOwner;
import cases.nested_details.UnknownError;
import cases.nested_details.runtime.InvalidPayloadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

public final class NestedCheck {
    private static int checked;
    private static final List<String> FAILED = new ArrayList<>();
    private static final ObjectMapper JSON = new ObjectMapper();

    private NestedCheck() {}

    private static void check(boolean ok, String what) {
        checked++;
        if (!ok) {
            FAILED.add("FAIL " + what);
        }
    }

    private static void same(Object got, Object want, String what) {
        check(want.equals(got), what + ": got " + got + ", want " + want);
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(json, e);
        }
    }

    private static String refusal(Supplier<?> call) {
        try {
            call.get();
            return null;
        } catch (InvalidPayloadException problem) {
            return problem.field();
        } catch (cases.kubernetes.runtime.InvalidPayloadException problem) {
            return problem.field();
        }
    }

    public static void main(String[] args) {
        // A Kubernetes 422 Status body of the shape api-conventions.md gives
        // (StatusDetails.causes, each a StatusCause), a cause carrying a member
        // StatusCause does not declare.
        String status = "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"status\":\"Failure\",\"message\":\"Pod \\\"web\\\" is invalid\","
                + "\"reason\":\"Invalid\",\"details\":{\"name\":\"web\",\"kind\":\"pods\","
                + "\"causes\":[{\"reason\":\"FieldValueRequired\",\"message\":\"Required value\","
                + "\"field\":\"spec.containers\"},{\"reason\":\"FieldValueInvalid\","
                + "\"field\":\"metadata.name\",\"origin\":\"format=dns-label\"}]},\"code\":422}";
        StatusError received = cases.kubernetes.Errors.fromPayload(status);
        check(received instanceof cases.kubernetes.InvalidError, "Invalid: " + received.getClass());
        if (received instanceof cases.kubernetes.InvalidError invalid) {
            List<StatusDetailsCausesItem> causes = invalid.invalidDetails().causes();
            same(causes.size(), 2, "causes");
            same(causes.get(0).reason(), "FieldValueRequired", "causes[0].reason");
            same(causes.get(0).field(), "spec.containers", "causes[0].field");
            same(causes.get(0).message(), "Required value", "causes[0].message");
            check(causes.get(1).message() == null, "an absent optional member is null");
            same(causes.get(1).toMap(), Map.of("reason", "FieldValueInvalid",
                    "field", "metadata.name"), "a record holds its declared members");
        }
        same(tree(received.toPayload()), tree(status), "the body written back as received");

        // Real Status bodies (tests/catalogues/kubernetes/bodies, each path an
        // argument): each cause read through the record as the body has it, and
        // the body written back exactly.
        for (String path : args) {
            String text;
            try {
                text = java.nio.file.Files.readString(java.nio.file.Path.of(path));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            JsonNode body = tree(text);
            StatusError real = cases.kubernetes.Errors.fromPayload(text);
            same(tree(real.toPayload()), body, path + " written back");
            if (!(real instanceof cases.kubernetes.InvalidError invalid)) {
                check(false, path + ": not Invalid but " + real.getClass());
                continue;
            }
            List<StatusDetailsCausesItem> causes = invalid.invalidDetails().causes();
            JsonNode want = body.get("details").get("causes");
            same(causes.size(), want.size(), path + " causes");
            for (int i = 0; i < Math.min(causes.size(), want.size()); i++) {
                same(causes.get(i).reason(), want.get(i).get("reason").textValue(), path + " reason");
                same(causes.get(i).message(), want.get(i).get("message").textValue(), path + " message");
                same(causes.get(i).field(), want.get(i).get("field").textValue(), path + " field");
            }
        }

        // Built from the records: each member under its wire name (class, not
        // class_), optional ones absent, the message rendered.
        NotFoundError built = new NotFoundError(new NotFoundDetails(
                List.of(new ApiDetailsCausesItem("FieldValueInvalid", null, "spec.name")),
                new ResourceDetailsResource("Pod", "web", "standard",
                        new ResourceDetailsResourceOwner("u-1", null, 2L)),
                "Pod"));
        same(built.getMessage(), "Pod not found", "message");
        same(tree(built.toPayload()), tree("{\"code\":\"not_found\",\"message\":\"Pod not found\","
                + "\"retryable\":false,\"details\":{\"causes\":[{\"reason\":\"FieldValueInvalid\","
                + "\"field\":\"spec.name\"}],\"resource\":{\"kind\":\"Pod\",\"name\":\"web\","
                + "\"class\":\"standard\",\"owner\":{\"uid\":\"u-1\",\"generation\":2}},"
                + "\"kind_hint\":\"Pod\"}}"), "the payload of the records");
        ResourceDetailsResource resource = built.notFoundDetails().resource();
        same(resource.class_(), "standard", "resource.class_()");
        same(resource.owner().generation(), 2L, "resource.owner().generation()");
        ApiError back = Errors.fromPayload(built.toPayload());
        same(tree(back.toPayload()), tree(built.toPayload()), "written, read, written again");

        // A shared field is one record: every code's details hold the same type.
        InvalidError invalid = new InvalidError(new InvalidDetails(
                List.of(new ApiDetailsCausesItem("FieldValueRequired", "m", null)),
                new ResourceDetailsResource("Pod", "web", null, null),
                List.of(Map.of("k", "v"))));
        same(invalid.invalidDetails().causes().get(0).getClass(), ApiDetailsCausesItem.class,
                "causes items of invalid");
        same(invalid.invalidDetails().tags(), List.of(Map.of("k", "v")), "free-form items");

        // Required members are given (the compact constructor names them).
        try {
            new ApiDetailsCausesItem(null, "m", "f");
            check(false, "a cause without its required reason was built");
        } catch (NullPointerException expected) {
            same(expected.getMessage(), "reason", "the missing member");
        }

        // Refusals name the deepest member (issue 30 §7), create's as fromPayload's.
        String head = "{\"code\":\"not_found\",\"message\":\"m\",\"retryable\":false,\"details\":";
        String good = "{\"kind\":\"Pod\",\"name\":\"web\"}";
        same(refusal(() -> Errors.fromPayload(head + "{\"kind_hint\":\"k\",\"resource\":"
                + "{\"kind\":\"Pod\",\"name\":\"web\",\"owner\":{\"uid\":\"u\",\"generation\":0}}}}")),
                "details.resource.owner.generation", "below minimum");
        same(refusal(() -> Errors.fromPayload(head + "{\"kind_hint\":\"k\",\"resource\":" + good
                + ",\"causes\":[{\"reason\":\"FieldValueInvalid\"},{\"field\":\"f\"}]}}")),
                "details.causes[1].reason", "an item's missing member");
        same(refusal(() -> Errors.fromPayload(head + "{\"kind_hint\":\"k\",\"resource\":" + good
                + ",\"causes\":[{\"reason\":\"FieldValueInvalid\"},7]}}")),
                "details.causes", "an item that is no object");
        same(refusal(() -> Errors.create("not_found", Map.of("kind_hint", "k",
                "resource", Map.of("name", "web")))), "details.resource.kind", "create");

        // An unknown code is not checked; its typed view names the path it cannot read.
        ApiError unknown = Errors.fromPayload("{\"code\":\"brand_new\",\"message\":\"m\","
                + "\"retryable\":false,\"details\":{\"causes\":[{\"reason\":7}]}}");
        check(unknown instanceof UnknownError, "the fallback's class");
        if (unknown instanceof UnknownError fallback) {
            same(refusal(() -> fallback.unknownDetails().causes()), "details.causes[0].reason",
                    "the typed view of unchecked details");
        }

        for (String failure : FAILED) {
            System.out.println(failure);
        }
        System.out.println("checked " + checked + ", " + FAILED.size() + " failed");
        System.exit(FAILED.isEmpty() ? 0 : 1);
    }
}
