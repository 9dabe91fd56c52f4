package org.sctpj.stack;

/**
 * Identifies an association within its {@link Endpoint}. Ids are never reused by an endpoint.
 *
 * @param value the numeric id, positive
 */
public record AssociationId(int value) {
    @Override
    public String toString() {
        return "assoc#" + value;
    }
}
