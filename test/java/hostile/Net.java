// Net.java - a TCP connection (denied: network; the jail has no network
// either).
import java.net.Socket;

public class Net {
	public static void main(String[] args) throws Exception {
		try (Socket s = new Socket("127.0.0.1", 9)) {
			System.out.println("{\"ran\":true}");
		}
	}
}
