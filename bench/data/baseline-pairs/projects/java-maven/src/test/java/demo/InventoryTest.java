package demo;

import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;

public class InventoryTest {
    @Test
    public void addsAndCounts() {
        Inventory inv = new Inventory();
        inv.add("bolt", 3);
        inv.add("bolt", 2);
        assertEquals(5, inv.count("bolt"));
    }

    @Test
    public void refusesToTakeMoreThanInStock() {
        Inventory inv = new Inventory();
        inv.add("nut", 1);
        assertFalse(inv.take("nut", 2));
        assertEquals(1, inv.count("nut"));
    }
}
