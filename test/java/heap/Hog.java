// Hog.java - fills the heap until the JVM runs out of it: reason memory.
import java.util.ArrayList;

public class Hog {
	public static void main(String[] args) {
		ArrayList<long[]> held = new ArrayList<>();
		for (;;)
			held.add(new long[1 << 16]);
	}
}
