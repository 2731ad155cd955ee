// Squat.java - puts a class into the sandbox launcher's package, where it
// could reach the launcher's package-private parts: refused before
// anything runs (the package is the sandbox's alone).
package airlock_sandbox;

public class Squat {
	public static void main(String[] args) {
		System.out.println("{\"ran\":true}");
	}
}
