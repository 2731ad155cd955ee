// Greeter.java - a class in a package: javac's output becomes a directory
// tree (tool/util/Greeter.class), which the check walks.
package tool.util;

public final class Greeter {
	private Greeter() { }

	public static String greet(String who) {
		return "hello, " + who;
	}
}
