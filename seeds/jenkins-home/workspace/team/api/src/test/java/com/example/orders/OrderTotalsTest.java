package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class OrderTotalsTest {
    @Test
    void totalOfEmptyOrderIsZero() {
        assertEquals(new BigDecimal("0.00"), OrderTotals.total(BigDecimal.ZERO, BigDecimal.ZERO));
    }

    @Test
    void totalSumsLines() {
        assertEquals(new BigDecimal("108.00"), OrderTotals.total(new BigDecimal("100"), BigDecimal.ZERO));
    }

    @Test
    void taxIsRoundedHalfUp() {
        assertEquals(new BigDecimal("1.08"), OrderTotals.total(BigDecimal.ONE, BigDecimal.ZERO));
    }

    @Test
    void totalAppliesDiscountBeforeTax() {
        // 100 with 10 % off is 90; 8 % tax on 90 is 97.20.
        BigDecimal subtotal = new BigDecimal("100");
        BigDecimal discountRate = new BigDecimal("0.10");

        BigDecimal total = OrderTotals.total(subtotal, discountRate);
        assertEquals(new BigDecimal("97.20"), total);
    }
}
