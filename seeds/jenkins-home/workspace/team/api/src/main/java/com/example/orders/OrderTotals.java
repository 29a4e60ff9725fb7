package com.example.orders;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Totals of an order: lines, then discount, then tax. */
public final class OrderTotals {
    private static final BigDecimal TAX_RATE = new BigDecimal("0.08");

    private OrderTotals() {}

    public static BigDecimal total(BigDecimal subtotal, BigDecimal discountRate) {
        BigDecimal taxed = subtotal.add(subtotal.multiply(TAX_RATE));
        // BUG (build #42): the discount is applied to the taxed amount instead of before tax,
        // and only to the tax part.
        BigDecimal discount = taxed.subtract(subtotal).multiply(discountRate);
        return taxed.subtract(discount).setScale(2, RoundingMode.HALF_UP);
    }
}
