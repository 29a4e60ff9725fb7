package demo;

import java.util.HashMap;
import java.util.Map;

public class Inventory {
    private final Map<String, Integer> stock = new HashMap<>();

    public void add(String item, int count) {
        stock.merge(item, count, Integer::sum);
    }

    public int count(String item) {
        return stock.getOrDefault(item, 0);
    }

    public boolean take(String item, int count) {
        int have = count(item);
        if (have < count) return false;
        stock.put(item, have - count);
        return true;
    }
}
