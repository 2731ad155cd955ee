// InnerSpawn.java - the denied call hides in a lambda inside a nested
// class: the check must read every class file javac produced.
import java.util.function.Supplier;

public class InnerSpawn {
	static class Helper {
		Supplier<Object> later() {
			return () -> {
				try {
					return new ProcessBuilder("true").start();
				} catch (Exception e) {
					return null;
				}
			};
		}
	}

	public static void main(String[] args) {
		System.out.println("{\"ran\":" + (new Helper() != null) + "}");
	}
}
